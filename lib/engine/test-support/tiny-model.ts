// Test fixture: a small random-weight llama model with a tokenizer trained on the task corpus,
// written as GGUF into the OS temp directory (never into the repository).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tokenizerTrainingTexts } from "../corpus/generate";
import { writeLlamaGguf } from "../gguf/llama-gguf";
import { writeLoraGguf } from "../gguf/lora-gguf";
import { tensorShapes, type LlamaConfig, type LlamaWeights } from "../model/config";
import type { LoraAdapter } from "../model/lora";
import { randomNormal } from "../model/random-tensor";
import { Prng } from "../prng";
import { CHATML_SPECIALS } from "../tokenizer/chatml";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { trainBpe } from "../tokenizer/train-bpe";

export const TINY_CONFIG: LlamaConfig = {
  vocabSize: 384,
  dim: 64,
  nLayers: 2,
  nHeads: 4,
  nKvHeads: 2,
  ffnDim: 128,
  contextLength: 256,
  ropeBase: 10000,
  normEps: 1e-5,
};

/** Gaussian weights with std 0.5 for embeddings and 0.2 for matrices (so logits vary a lot), norms 1. */
export function randomWeights(config: LlamaConfig, seed: number): LlamaWeights {
  const rng = new Prng(seed);
  const weights: LlamaWeights = {};
  for (const [name, shape] of Object.entries(tensorShapes(config))) {
    const n = shape.reduce((a, b) => a * b, 1);
    weights[name] = shape.length === 1 ? new Float32Array(n).fill(1) : randomNormal(rng, n, name === "token_embd.weight" ? 0.5 : 0.2);
  }
  return weights;
}

export function randomLora(config: LlamaConfig, seed: number, rank = 4): Record<string, LoraAdapter> {
  const rng = new Prng(seed);
  const adapters: Record<string, LoraAdapter> = {};
  for (let l = 0; l < config.nLayers; l++) {
    for (const w of ["attn_q", "attn_v", "ffn_up"]) {
      const [out, inDim] = tensorShapes(config)[`blk.${l}.${w}.weight`] as [number, number];
      adapters[`blk.${l}.${w}.weight`] = { a: randomNormal(rng, rank * inDim, 0.5), b: randomNormal(rng, out * rank, 0.5), rank };
    }
  }
  return adapters;
}

let tokenizer: Tokenizer | undefined;
export function tinyTokenizer(): Tokenizer {
  tokenizer ??= trainBpe(tokenizerTrainingTexts(2000), TINY_CONFIG.vocabSize, CHATML_SPECIALS);
  return tokenizer;
}

export interface TinyModelFiles {
  dir: string;
  model: string;
  lora: string;
  config: LlamaConfig;
  weights: LlamaWeights;
  tokenizer: Tokenizer;
  remove(): void;
}

export function writeTinyModel(seed = 1): TinyModelFiles {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-tiny-"));
  const tok = tinyTokenizer();
  const config = { ...TINY_CONFIG, vocabSize: tok.vocabSize };
  const weights = randomWeights(config, seed);
  const model = path.join(dir, "tiny.gguf");
  const lora = path.join(dir, "tiny-lora.gguf");
  writeLlamaGguf(model, { config, weights, tokenizer: tok, name: "tiny-test" });
  writeLoraGguf(lora, { config, adapters: randomLora(config, seed + 1), alpha: 8 });
  return { dir, model, lora, config, weights, tokenizer: tok, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
