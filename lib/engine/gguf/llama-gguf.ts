// Model GGUFs the trainer reads and writes. Anneal's own models and checkpoints are one file that
// llama.cpp serves as is: `llama` architecture hyperparameters, the tokenizer and chat template, and
// every weight as F32 (writeLlamaGguf, readLlamaGguf). The chat models people download (llama, qwen2,
// qwen3 in llama.cpp's layout, any weight type readTensor decodes) are read as LoRA bases
// (readTrainableGguf; readPackedBase keeps their matrices in the file's encoding); trainableLayout says from the header whether, and why not, a file can be trained.

import { packedWeightFromTensor } from "../kernels/packed-weight";
import type { LlamaArch, LlamaConfig, LlamaWeights } from "../model/config";
import type { BaseWeights, Weight } from "../model/frozen-base";
import { archOf, configProblems, headDim, isPlainLlama, ROPE_FREQS, tensorShapes, weightShapes } from "../model/config";
import { tokenizerFromGguf, tokenizerToGguf } from "../tokenizer/tokenizer-gguf";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { GGML_TYPE, ggmlTypeName } from "./ggml-types";
import { openGguf, type GgufFile } from "./read-gguf";
import { f32, numberValue, str, stringArrayValue, u32, type GgufMetadata } from "./values";
import { canDequantize, DEQUANTIZABLE_TYPES } from "./weight-types";
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

/** The keys writeLlamaGguf writes for the model itself (hyperparameters, tokenizer, template). */
function annealModelMetadata(c: LlamaConfig, tokenizer: Tokenizer, name: string, chatTemplate?: string): GgufMetadata {
  return {
    "general.architecture": str("llama"),
    "general.name": str(name),
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
    ...tokenizerToGguf(tokenizer, chatTemplate),
  };
}

/** Writes an Anneal model (plain llama, F32). Other architectures are trained as LoRA adapters over
 *  their own file, never rewritten: this refuses them. */
export function writeLlamaGguf(path: string, options: WriteLlamaGgufOptions): void {
  const { config: c, weights, tokenizer } = options;
  if (!isPlainLlama(c)) throw new Error(`writeLlamaGguf writes Anneal's plain llama models only, not a ${archOf(c)} layout`);
  if (tokenizer.vocabSize !== c.vocabSize) throw new Error(`vocabSize ${c.vocabSize} but tokenizer has ${tokenizer.vocabSize} tokens`);
  const own = annealModelMetadata(c, tokenizer, options.name, options.chatTemplate);
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

const TRAINABLE_ARCHS: readonly LlamaArch[] = ["llama", "qwen2", "qwen3"];

/** What trainableLayout reads from a GGUF. */
export type TrainableLayout =
  | { config: LlamaConfig; own: true }
  /** `foreign`: why it is not Anneal's own (see annealOwnReason). */
  | { config: LlamaConfig; own: false; foreign: string };

/**
 * The config of a GGUF the trainer can train, from its header (and rope_freqs.weight, [headDim/2]
 * floats): Anneal's own models and checkpoints, and the chat models people download in llama.cpp's own
 * layout (convert_hf_to_gguf.py's) for the architectures llama, qwen2 and qwen3, with weights of any
 * type readTensor decodes (F32, F16, BF16 and the quantizations weight-types.ts lists), which the
 * trainer reads as float32. Weights are read as stored: the converter already permuted `llama` q/k rows
 * for llama.cpp's adjacent-pair RoPE, which is the RoPE the trainer applies to that architecture.
 * Anything llama.cpp would compute differently from the trainer throws UntrainableGguf naming the
 * architecture, key, tensor or type: other architectures, mixtures of experts, RoPE scaling other
 * than none or Llama 3's frequency factors (yarn, linear, longrope), sliding-window or non-causal
 * attention, per-layer widths, unknown, missing or misshapen tensors.
 */
export function trainableLayout(file: GgufFile): TrainableLayout {
  const m = file.metadata;
  const arch = m["general.architecture"]?.value;
  if (typeof arch !== "string" || !TRAINABLE_ARCHS.includes(arch as LlamaArch)) {
    refuse(`architecture ${String(arch)}: the trainer reads ${TRAINABLE_ARCHS.join(", ")} GGUFs`);
  }
  const config = hyperparameters(file, arch as LlamaArch);
  const expected = tensorShapes(config);
  const present = new Set(file.tensors.map((t) => t.name));
  for (const t of file.tensors) {
    const shape = expected[t.name];
    if (!shape) refuse(`tensor ${t.name} is not part of the ${arch} layout the trainer reads`);
    else if (t.dims.join() !== ggufDims(shape).join()) refuse(`tensor ${t.name} has dims [${t.dims}], expected [${ggufDims(shape)}]`);
    else if (!canDequantize(t.ggmlType)) {
      refuse(`tensor ${t.name} is ${ggmlTypeName(t.ggmlType)}: the trainer reads ${DEQUANTIZABLE_TYPES.map(ggmlTypeName).join(", ")} weights`);
    }
  }
  for (const name of Object.keys(expected)) if (!present.has(name)) refuse(`tensor ${name} is missing`);
  if (config.ropeFreqFactors) {
    const factors = [...file.readTensor(ROPE_FREQS)];
    if (!factors.every((f) => Number.isFinite(f) && f > 0)) refuse(`tensor ${ROPE_FREQS} holds a factor that is not positive`);
    config.ropeFreqFactors = factors;
  }
  const foreign = annealOwnReason(file, config);
  return foreign === null ? { config, own: true } : { config, own: false, foreign };
}

/** The architecture's hyperparameters ({arch}.* keys, read as llama.cpp's loader does) and the
 *  variations its tensors announce; refuses what the trainer does not compute as llama.cpp does. */
function hyperparameters(file: GgufFile, arch: LlamaArch): LlamaConfig {
  const m = file.metadata;
  const key = (name: string) => `${arch}.${name}`;
  const guard = <T>(read: () => T): T => {
    try {
      return read();
    } catch (error) {
      return refuse((error as Error).message);
    }
  };
  const required = (name: string) => guard(() => numberValue(m, key(name)));
  const optional = (name: string) => (m[key(name)] === undefined ? undefined : required(name));
  const nHeads = required("attention.head_count");
  const config: LlamaConfig = {
    // llama.cpp: {arch}.vocab_size, else the tokenizer's token count.
    vocabSize: optional("vocab_size") ?? guard(() => stringArrayValue(m, "tokenizer.ggml.tokens").length),
    dim: required("embedding_length"),
    nLayers: required("block_count"),
    nHeads,
    nKvHeads: optional("attention.head_count_kv") ?? nHeads,
    ffnDim: required("feed_forward_length"),
    contextLength: required("context_length"),
    ropeBase: optional("rope.freq_base") ?? 10000,
    normEps: required("attention.layer_norm_rms_epsilon"),
  };
  const dh = optional("attention.key_length") ?? config.dim / nHeads;
  const [valueLength, ropeDim] = [optional("attention.value_length"), optional("rope.dimension_count")];
  if ((valueLength ?? dh) !== dh) refuse(`${key("attention.value_length")} ${valueLength} differs from the key length ${dh}`);
  if ((ropeDim ?? dh) !== dh) refuse(`${key("rope.dimension_count")} ${ropeDim}: the trainer turns whole heads of ${dh}`);
  if (arch === "qwen2" && dh !== config.dim / nHeads) refuse(`${key("attention.key_length")} ${dh}: qwen2's heads are embedding_length / head_count wide`);
  if (dh !== config.dim / nHeads) config.headDim = dh;
  const expertCount = optional("expert_count") ?? 0;
  if (expertCount > 0) refuse(`${key("expert_count")} ${expertCount}: mixtures of experts are not trained`);
  if (m[key("attention.sliding_window")] !== undefined) refuse(`${key("attention.sliding_window")}: sliding-window attention is not trained`);
  if (m[key("attention.causal")]?.value === false) refuse(`${key("attention.causal")} false: the trainer's attention is causal`);
  // llama.cpp's default type is linear and a factor of 0 (or 1) means no scaling.
  const scaling = m[key("rope.scaling.type")]?.value ?? "linear";
  const factor = optional("rope.scaling.factor") ?? optional("rope.scale_linear") ?? 0;
  if ((scaling !== "none" && scaling !== "linear") || (factor !== 0 && factor !== 1)) {
    refuse(`RoPE scaling ${String(scaling)}${factor ? ` ×${factor}` : ""}: the trainer applies RoPE unscaled (or with Llama 3's rope_freqs)`);
  }

  const problems = configProblems(config);
  if (problems.length) refuse(`its hyperparameters are not a model the trainer runs: ${problems.join("; ")}`);

  const has = (name: string) => file.tensors.some((t) => t.name === name);
  if (arch !== "llama") config.arch = arch;
  if (arch !== "llama") config.ropeStyle = "neox";
  if (has(ROPE_FREQS)) {
    // Only the llama graph passes rope_freqs to its RoPE; in another layout it is an unknown tensor.
    if (arch !== "llama") refuse(`tensor ${ROPE_FREQS} is not part of the ${arch} layout the trainer reads`);
    config.ropeFreqFactors = new Array<number>(headDim(config) / 2).fill(1); // read once the shapes are checked
  }
  if (has("blk.0.attn_q.bias")) config.qkvBias = true;
  if (arch === "qwen3") config.qkNorm = true;
  if (!has("output.weight")) config.tiedOutput = true;
  return config;
}

/** Metadata keys an Anneal file may carry beyond its model's: its writers' (anneal.training.*, …). */
const isCallerKey = (key: string) => key.startsWith("anneal.") || key === "general.description";

/**
 * Why a trainable GGUF is not one Anneal wrote, or null when it is: the API allows full-weight
 * training only on these. Anneal's own files are plain llama, every tensor F32, with a tokenizer
 * Anneal reproduces (`tokenizer.ggml.pre` "default"), and no metadata key but the ones
 * writeLlamaGguf writes (its model keys, anneal.*, general.description). Every file llama.cpp's
 * converter or quantizer writes carries general.quantization_version (and general.type), which Anneal
 * never writes, so a download cannot pass for Anneal's even in a plain-llama F32 layout.
 */
function annealOwnReason(file: GgufFile, config: LlamaConfig): string | null {
  const m = file.metadata;
  if (!isPlainLlama(config)) return `its ${archOf(config)} layout is not Anneal's plain llama`;
  const typed = file.tensors.find((t) => t.ggmlType !== GGML_TYPE.F32);
  if (typed) return `tensor ${typed.name} is ${ggmlTypeName(typed.ggmlType)}, not F32`;
  let tokenizer: Tokenizer;
  try {
    tokenizer = tokenizerFromGguf(m);
  } catch (error) {
    return `its tokenizer cannot be reproduced by the trainer (${(error as Error).message})`;
  }
  const template = m["tokenizer.chat_template"]?.value;
  const own = annealModelMetadata(config, tokenizer, "", typeof template === "string" ? template : undefined);
  const other = Object.keys(m).find((k) => !(k in own) && !isCallerKey(k));
  return other === undefined ? null : `metadata ${other} is not a key Anneal writes`;
}

/** A GGUF the trainer can train (see trainableLayout) with its weights read as float32, or (W =
 *  Weight, readPackedBase) its matrices kept in their file encoding. */
export interface TrainableGgufContents<W extends Weight = Float32Array> {
  config: LlamaConfig;
  /** Every learned tensor (weightShapes(config)); rope_freqs is in config.ropeFreqFactors. */
  weights: Record<string, W>;
  /** Every key in the file. */
  metadata: GgufMetadata;
  /** Written by Anneal: full-weight training, and writing the result with writeLlamaGguf, are for
   *  these only; any other base trains LoRA adapters. */
  own: boolean;
  /** Anneal's tokenizer, for its own files; null for others, whose tokenizer (llama-bpe, qwen2, …)
   *  the trainer does not reproduce: llama.cpp, which serves them, tokenizes for them. */
  tokenizer: Tokenizer | null;
}

/** Reads a GGUF the trainer can train (see trainableLayout, whose UntrainableGguf it throws). */
export const readTrainableGguf = (path: string): TrainableGgufContents => readGguf(path, false, false) as TrainableGgufContents;

/** readTrainableGguf with every matrix kept packed as the file stores it (F32 included), the 1-D
 *  tensors as float32: a LoRA model's frozen base (model/frozen-base.ts), at the file's size. */
export const readPackedBase = (path: string): TrainableGgufContents<Weight> => readGguf(path, false, true);

/** Reads a GGUF Anneal wrote (its base models and checkpoints, with their tokenizer); any other
 *  throws UntrainableGguf saying why (trainableLayout's reason, or why it is not Anneal's). */
export function readLlamaGguf(path: string): LlamaGgufContents {
  const { config, weights, metadata, tokenizer } = readGguf(path, true, false);
  return { config, weights: weights as LlamaWeights, metadata, tokenizer: tokenizer! };
}

function readGguf(path: string, ownOnly: boolean, packed: boolean): TrainableGgufContents<Weight> {
  const file = openGguf(path);
  try {
    const layout = trainableLayout(file);
    if (ownOnly && !layout.own) refuse(`not a model Anneal wrote: ${layout.foreign}`);
    const weights: BaseWeights = {};
    for (const [name, shape] of Object.entries(weightShapes(layout.config))) {
      const info = file.tensors.find((t) => t.name === name)!;
      weights[name] = packed && shape.length === 2 ? packedWeightFromTensor(info, file.readTensorBytes(name)) : file.readTensor(name);
    }
    const tokenizer = layout.own ? tokenizerFromGguf(file.metadata) : null;
    return { config: layout.config, weights, metadata: file.metadata, own: layout.own, tokenizer };
  } finally {
    file.close();
  }
}
