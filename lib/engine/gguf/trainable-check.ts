import fs from "node:fs";
import { trainableLayout } from "./llama-gguf";
import { openGguf } from "./read-gguf";

// Whether Anneal's trainer can train a GGUF, read from its header once per version of the file: the
// base-model catalogue asks on every request, so a listing is refused before any job is accepted.

const checked = new Map<string, { ino: number; mtimeMs: number; size: number; reason: string | null }>();

/** Why the trainer cannot train the file (no path in it), or null; a missing file is null here and
 *  is reported when the model is loaded. */
export function untrainableReason(path: string): string | null {
  const stat = fs.statSync(path, { throwIfNoEntry: false });
  if (!stat) return null;
  const known = checked.get(path);
  if (known?.ino === stat.ino && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.reason;
  let reason: string | null = null;
  try {
    const file = openGguf(path);
    try {
      trainableLayout(file);
    } finally {
      file.close();
    }
  } catch (error) {
    reason = (error as Error).message;
  }
  checked.set(path, { ino: stat.ino, mtimeMs: stat.mtimeMs, size: stat.size, reason });
  return reason;
}
