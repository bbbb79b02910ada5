// An Anneal model as one GGUF file that llama.cpp serves as is: `llama` architecture hyperparameters,
// the tokenizer and chat template, and every weight as F32. Checkpoints are written and read here.

import type { LlamaConfig, LlamaWeights } from "../model/config";
import { headDim, tensorShapes } from "../model/config";
import { tokenizerFromGguf, tokenizerToGguf } from "../tokenizer/tokenizer-gguf";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { ggmlTypeName } from "./ggml-types";
import { openGguf, type GgufFile } from "./read-gguf";
import { f32, numberValue, str, u32, type GgufMetadata } from "./values";
import { GGML_TYPE_F32, writeGguf } from "./write-gguf";

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

/** Why Anneal's trainer cannot read a GGUF, in words a client may see (no path). */
export class UntrainableGguf extends Error {}

const refuse = (reason: string): never => {
  throw new UntrainableGguf(reason);
};

/**
 * The config of a GGUF in the layout Anneal's trainer reads (its own models and their checkpoints:
 * `llama`, every weight F32, an untied output, the tokenizer it writes), from the header alone;
 * anything else throws UntrainableGguf naming the architecture, tensor or tokenizer.
 */
export function trainableLayout(file: GgufFile): LlamaConfig {
  const m = file.metadata;
  const arch = m["general.architecture"]?.value;
  if (arch !== "llama") refuse(`architecture ${String(arch)}: the trainer reads only llama-architecture GGUFs written by Anneal`);
  let config: LlamaConfig;
  try {
    config = {
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
  } catch (error) {
    return refuse((error as Error).message);
  }
  const keyLength = m["llama.attention.key_length"]?.value;
  if (keyLength !== undefined && Number(keyLength) !== headDim(config)) {
    refuse(`llama.attention.key_length ${keyLength} differs from embedding_length / head_count: the trainer does not read separate head widths`);
  }
  const expected = tensorShapes(config);
  for (const t of file.tensors) {
    const shape = expected[t.name];
    if (!shape) refuse(`tensor ${t.name} is not part of the layout the trainer reads`);
    else if (t.dims.join() !== ggufDims(shape).join()) refuse(`tensor ${t.name} has dims [${t.dims}], expected [${ggufDims(shape)}]`);
    else if (t.ggmlType !== GGML_TYPE_F32) refuse(`tensor ${t.name} is ${ggmlTypeName(t.ggmlType)}: the trainer reads F32 weights only`);
  }
  const present = new Set(file.tensors.map((t) => t.name));
  for (const name of Object.keys(expected)) {
    if (!present.has(name)) refuse(`tensor ${name} is missing${name === "output.weight" ? " (a tied output is not read)" : ""}`);
  }
  try {
    tokenizerFromGguf(m);
  } catch (error) {
    refuse(`its tokenizer cannot be reproduced by the trainer (${(error as Error).message})`);
  }
  return config;
}

/** Reads a GGUF the trainer can train (see trainableLayout, whose UntrainableGguf it throws). */
export function readLlamaGguf(path: string): LlamaGgufContents {
  const file = openGguf(path);
  try {
    const config = trainableLayout(file);
    const weights: LlamaWeights = {};
    for (const name of Object.keys(tensorShapes(config))) weights[name] = file.readTensor(name);
    return { config, weights, tokenizer: tokenizerFromGguf(file.metadata), metadata: file.metadata };
  } finally {
    file.close();
  }
}
