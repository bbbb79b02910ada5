import { readPerFileVersion, type FileVersionCache } from "@/lib/engine/gguf/file-version-cache";
import { trainableLayout } from "@/lib/engine/gguf/llama-gguf";
import { readLoraGguf } from "@/lib/engine/gguf/lora-gguf";
import { openGguf } from "@/lib/engine/gguf/read-gguf";
import type { LlamaConfig } from "@/lib/engine/model/config";
import type { LoraSettings } from "@/lib/engine/model/lora-settings";
import { peftFiles } from "./peft-adapter";
import type { ZipEntry } from "./zip";

// A LoRA checkpoint (Anneal's GGUF adapter) as the files of a PEFT directory: what a PEFT zip download
// holds and what vLLM loads from the shared adapter directory (lib/inference/upstream-adapters.ts).

export interface PeftCheckpoint {
  /** The checkpoint's GGUF adapter, absolute. */
  adapterFile: string;
  settings: LoraSettings;
  /** The base: a GGUF of its weights (for its shapes) and its names. */
  base: { name: string; hfNames: string[]; gguf: string };
}

const baseConfigs: FileVersionCache<LlamaConfig> = new Map();

/** The base's shapes, read from its GGUF's header once per version of the file. */
function baseConfig(gguf: string): LlamaConfig {
  return readPerFileVersion(baseConfigs, gguf, () => {
    const file = openGguf(gguf);
    try {
      return trainableLayout(file).config;
    } finally {
      file.close();
    }
  });
}

export function checkpointPeftFiles({ adapterFile, settings, base }: PeftCheckpoint): ZipEntry[] {
  const config = baseConfig(base.gguf);
  const { adapters, alpha } = readLoraGguf(adapterFile, config);
  // Hugging Face's name for the base (models-file `hf_name`), else Anneal's own name for it.
  const baseModelName = base.hfNames[0] ?? base.name;
  // The GGUF holds alpha as float32; the model's settings hold the value as it was given (0.1, not 0.10000000149).
  const exactAlpha = Math.fround(settings.alpha) === alpha ? settings.alpha : alpha;
  return peftFiles({ config, adapters, alpha: exactAlpha, dropout: settings.dropout, baseModelName });
}
