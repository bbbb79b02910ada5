// The model the engine benchmark runs on: models/tiny-chat.gguf when it exists, else a random-weight
// fixture of comparable size (~2M parameters) written to the OS temp directory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tokenizerTrainingTexts } from "../../lib/engine/corpus/generate";
import { readLlamaGguf, writeLlamaGguf, type LlamaGgufContents } from "../../lib/engine/gguf/llama-gguf";
import type { LlamaConfig } from "../../lib/engine/model/config";
import { TINY_CHAT_GGUF } from "../../lib/engine/pretrain/tiny-chat-files";
import { randomWeights } from "../../lib/engine/test-support/tiny-model";
import { CHATML_SPECIALS } from "../../lib/engine/tokenizer/chatml";
import { trainBpe } from "../../lib/engine/tokenizer/train-bpe";

const FIXTURE_CONFIG: LlamaConfig = {
  vocabSize: 1024, dim: 192, nLayers: 4, nHeads: 4, nKvHeads: 4, ffnDim: 512, contextLength: 256, ropeBase: 10000, normEps: 1e-5,
};

export interface BenchModel {
  /** The GGUF file llama.cpp loads. */
  path: string;
  /** "tiny-chat" or "fixture". */
  source: string;
  contents: LlamaGgufContents;
  parameters: number;
  /** Deletes the file if it is a temporary fixture. */
  remove(): void;
}

export function benchModel(): BenchModel {
  if (fs.existsSync(TINY_CHAT_GGUF)) return loaded(TINY_CHAT_GGUF, "tiny-chat", () => undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-bench-"));
  const file = path.join(dir, "fixture.gguf");
  const tokenizer = trainBpe(tokenizerTrainingTexts(2000), FIXTURE_CONFIG.vocabSize, CHATML_SPECIALS);
  const config = { ...FIXTURE_CONFIG, vocabSize: tokenizer.vocabSize };
  writeLlamaGguf(file, { config, weights: randomWeights(config, 1), tokenizer, name: "bench-fixture" });
  return loaded(file, "fixture", () => fs.rmSync(dir, { recursive: true, force: true }));
}

function loaded(file: string, source: string, remove: () => void): BenchModel {
  const contents = readLlamaGguf(file);
  const parameters = Object.values(contents.weights).reduce((n, w) => n + w.length, 0);
  return { path: file, source, contents, parameters, remove };
}
