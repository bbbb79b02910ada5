import fs from "node:fs";
import path from "node:path";
import { resetEnvCache } from "@/lib/config/env";
import { writeTinyModel, type TinyModelFiles } from "@/lib/engine/test-support/tiny-model";

// Two base models for inference tests, both small random-weight GGUFs: `test/tiny` (trainable,
// the default) and `test/frozen` (serve-only), listed through ANNEAL_MODELS_FILE, with any `extra`
// serve-only models after them.

export interface InferenceFixture {
  files: TinyModelFiles;
  remove(): void;
}

/** `tinyHfName`: test/tiny's Hugging Face name (`hf_name`), for what reports it (a PEFT export's base). */
export function installInferenceModels(extra: readonly { name: string; gguf: string }[] = [], options: { tinyHfName?: string } = {}): InferenceFixture {
  const files = writeTinyModel(7);
  const frozen = path.join(files.dir, "frozen.gguf");
  fs.copyFileSync(files.model, frozen);
  const listing = path.join(files.dir, "models.json");
  fs.writeFileSync(
    listing,
    JSON.stringify([
      { name: "test/tiny", gguf: files.model, trainable: true, learning_rates: { rl: 1e-4, sft: 3e-4 }, ...(options.tinyHfName && { hf_name: options.tinyHfName }) },
      { name: "test/frozen", gguf: "frozen.gguf" },
      ...extra,
    ]),
  );
  process.env.ANNEAL_MODELS_FILE = listing;
  process.env.ANNEAL_DEFAULT_MODEL = "test/tiny";
  resetEnvCache();
  return { files, remove: () => files.remove() };
}
