// An Anneal model as one GGUF file that llama.cpp serves as is: `llama` architecture hyperparameters,
// the tokenizer and chat template, and every weight as F32. Checkpoints are written and read here.

import type { LlamaConfig, LlamaWeights } from "../model/config";
import { headDim, tensorShapes } from "../model/config";
import { tokenizerFromGguf, tokenizerToGguf } from "../tokenizer/tokenizer-gguf";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { openGguf } from "./read-gguf";
import { f32, numberValue, str, u32, type GgufMetadata } from "./values";
import { writeGguf } from "./write-gguf";

export interface LlamaGgufContents {
  config: LlamaConfig;
  weights: LlamaWeights;
  tokenizer: Tokenizer;
  /** Every key in the file, including the ones config and tokenizer were read from. */
  metadata: GgufMetadata;
}

export interface WriteLlamaGgufOptions {
  config: LlamaConfig;
  weights: LlamaWeights;
  tokenizer: Tokenizer;
  /** general.name */
  name: string;
  /** More keys, e.g. "anneal.training.step"; they may not override the model's own keys. */
  metadata?: GgufMetadata;
  /** tokenizer.chat_template: Anneal's own unless the model has another (a checkpoint keeps its start's). */
  chatTemplate?: string;
}

/** GGUF dims of a row-major shape: the contiguous (last) axis first. */
export const ggufDims = (shape: readonly number[]): number[] => [...shape].reverse();

export function writeLlamaGguf(path: string, options: WriteLlamaGgufOptions): void {
  const { config: c, weights, tokenizer } = options;
  if (tokenizer.vocabSize !== c.vocabSize) throw new Error(`vocabSize ${c.vocabSize} but tokenizer has ${tokenizer.vocabSize} tokens`);
  const own: GgufMetadata = {
    "general.architecture": str("llama"),
    "general.name": str(options.name),
    "general.file_type": u32(0), // all F32
    "llama.vocab_size": u32(c.vocabSize),
    "llama.context_length": u32(c.contextLength),
    "llama.embedding_length": u32(c.dim),
    "llama.block_count": u32(c.nLayers),
    "llama.feed_forward_length": u32(c.ffnDim),
    "llama.attention.head_count": u32(c.nHeads),
    "llama.attention.head_count_kv": u32(c.nKvHeads),
    "llama.attention.layer_norm_rms_epsilon": f32(c.normEps),
    "llama.rope.freq_base": f32(c.ropeBase),
    "llama.rope.dimension_count": u32(headDim(c)),
    ...tokenizerToGguf(tokenizer, options.chatTemplate),
  };
  for (const key of Object.keys(options.metadata ?? {})) {
    if (key in own) throw new Error(`writeLlamaGguf: metadata key ${key} is reserved`);
  }
  const tensors = Object.entries(tensorShapes(c)).map(([name, shape]) => {
    const data = weights[name];
    if (!data) throw new Error(`writeLlamaGguf: missing weight ${name}`);
    return { name, dims: ggufDims(shape), data };
  });
  writeGguf(path, { ...own, ...options.metadata }, tensors);
}

export function readLlamaGguf(path: string): LlamaGgufContents {
  const file = openGguf(path);
  try {
    const m = file.metadata;
    const arch = m["general.architecture"]?.value;
    if (arch !== "llama") throw new Error(`${path}: architecture ${String(arch)}, expected llama`);
    const config: LlamaConfig = {
      vocabSize: numberValue(m, "llama.vocab_size"),
      dim: numberValue(m, "llama.embedding_length"),
      nLayers: numberValue(m, "llama.block_count"),
      nHeads: numberValue(m, "llama.attention.head_count"),
      nKvHeads: numberValue(m, "llama.attention.head_count_kv"),
      ffnDim: numberValue(m, "llama.feed_forward_length"),
      contextLength: numberValue(m, "llama.context_length"),
      ropeBase: numberValue(m, "llama.rope.freq_base"),
      normEps: numberValue(m, "llama.attention.layer_norm_rms_epsilon"),
    };
    const weights: LlamaWeights = {};
    const infos = new Map(file.tensors.map((t) => [t.name, t]));
    for (const [name, shape] of Object.entries(tensorShapes(config))) {
      const dims = infos.get(name)?.dims;
      if (dims?.join() !== ggufDims(shape).join()) throw new Error(`${path}: ${name} has dims [${dims}], expected [${ggufDims(shape)}]`);
      weights[name] = file.readTensor(name);
    }
    return { config, weights, tokenizer: tokenizerFromGguf(m), metadata: m };
  } finally {
    file.close();
  }
}
