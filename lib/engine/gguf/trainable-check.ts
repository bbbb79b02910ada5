import fs from "node:fs";
import type { LlamaArch } from "../model/config";
import { archOf } from "../model/config";
import { trainableLayout } from "./llama-gguf";
import { openGguf } from "./read-gguf";

// Whether Anneal's trainer can train a GGUF, and how, read from its header once per version of the
// file: the base-model catalogue asks on every request, so a listing is refused before any job is accepted.

export type Trainability =
  | { trainable: false; /** Why not, without the file's path. */ reason: string }
  /** fullWeights: a model Anneal wrote, which may train its full weights; any other base trains LoRA
   *  adapters only (see trainableLayout and TrainableGgufContents.own). */
  | { trainable: true; arch: LlamaArch; fullWeights: boolean };

const checked = new Map<string, { ino: number; mtimeMs: number; size: number; result: Trainability }>();

/** How the trainer can train the file; null for a missing file, which is reported when the model is loaded. */
export function ggufTrainability(path: string): Trainability | null {
  const stat = fs.statSync(path, { throwIfNoEntry: false });
  if (!stat) return null;
  const known = checked.get(path);
  if (known?.ino === stat.ino && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.result;
  let result: Trainability;
  try {
    const file = openGguf(path);
    try {
      const { config, own } = trainableLayout(file);
      result = { trainable: true, arch: archOf(config), fullWeights: own };
    } finally {
      file.close();
    }
  } catch (error) {
    result = { trainable: false, reason: (error as Error).message };
  }
  checked.set(path, { ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size, result });
  return result;
}

/** Why the trainer cannot train the file (no path in it), or null; a missing file is null here and
 *  is reported when the model is loaded. */
export function untrainableReason(path: string): string | null {
  const result = ggufTrainability(path);
  return result && !result.trainable ? result.reason : null;
}
