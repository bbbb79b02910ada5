// Test fixture: random-weight GGUF models in the exact layout llama.cpp's convert_hf_to_gguf.py gives
// the models people download (Llama 3.x / SmolLM2, Qwen2.5, Qwen3), with their real tokenizers, so the
// trainer and the server are tested on real architectures without any weights to download.
//
// What each architecture writes (keys in the converter's order):
//   general.architecture, general.type = "model", general.name,
//   {arch}.block_count, context_length, embedding_length, feed_forward_length, attention.head_count,
//   attention.head_count_kv, rope.freq_base, attention.layer_norm_rms_epsilon,
//   [attention.key_length, attention.value_length: qwen3, or a shape with headDim],
//   general.file_type, [llama: llama.vocab_size, llama.rope.dimension_count], general.quantization_version,
//   then the tokenizer (real-tokenizers.ts).
// Tensors (GGUF dims, contiguous first; W[out][in] is [in, out]), h = head width:
//   [llama with llama3Rope: rope_freqs.weight [h/2]], token_embd.weight [dim, vocab], per block N:
//   blk.N.attn_norm.weight [dim], attn_q.weight [dim, heads·h], attn_k.weight / attn_v.weight
//   [dim, kvHeads·h], [qwen2: attn_q.bias [heads·h], attn_k.bias / attn_v.bias [kvHeads·h]],
//   [qwen3: attn_q_norm.weight / attn_k_norm.weight [h]], attn_output.weight [heads·h, dim],
//   ffn_norm.weight [dim], ffn_gate.weight / ffn_up.weight [dim, ffn], ffn_down.weight [ffn, dim];
//   output_norm.weight [dim], [untied: output.weight [dim, vocab]].
// The converter permutes llama's q/k rows from Hugging Face's order into llama.cpp's (adjacent RoPE
// pairs); random weights are drawn in the file's order, so there is nothing to permute. Tensor order
// is the logical one above, not the converter's (Hugging Face's sorted names); llama.cpp reads by name.

import { Prng } from "../prng";
import { f32, str, u32, type GgufMetadata } from "../gguf/values";
import { ggufStream, GGML_TYPE_F32, writeGgufStream, type GgufTensorInPieces } from "../gguf/write-gguf";
import { randomNormal } from "../model/random-tensor";
import { DEFAULT_TOKENIZER, headDimOf, type Llama3RopeScaling, type RealLayoutShape } from "./real-layout-shapes";
import { realTokenizer, tokenizerGguf } from "./real-tokenizers";

/** llama_ftype ALL_F32; MOSTLY_F16 is 1, MOSTLY_BF16 32 ("except 1d tensors"). */
export const FILE_TYPE_ALL_F32 = 0;
/** gguf-py's GGML_QUANT_VERSION, which the converter writes into every file. */
const QUANTIZATION_VERSION = 2;

// Weight scales. Inputs to every matrix are RMS-normalized (elements ~1), so a matrix of std s/√in
// gives outputs of std s. Attention scores q·k/√h get std SCORE_STD: a query then puts most of its
// weight on a few positions instead of averaging them all ("peaked"); logits get std LOGIT_STD over
// the vocabulary, far from uniform (max probability ≫ 1/vocab, entropy ≪ ln vocab).
const SCORE_STD = 4;
const LOGIT_STD = 4;
/** What each block adds to the residual stream. Embeddings are much smaller (std 1/√dim, rows of
 *  norm ~1, as in trained models): were the stream mostly the input token's embedding, a tied output
 *  would give that token a logit of LOGIT_STD·√dim and every model would just repeat its input. */
const BRANCH_STD = 0.5;
/** Norm weights are 1 ± this, so a forward pass that ignored them would not match. */
const NORM_JITTER = 0.1;
const BIAS_STD = 0.5;

/** Encodes matrices as another ggml type (F16, BF16, a quantization); 1-D tensors (norms, biases,
 *  rope_freqs) stay F32, as the converter keeps them. */
export interface WeightEncoder {
  ggmlType: number;
  /** general.file_type (llama_ftype), e.g. 1 = MOSTLY_F16. */
  fileType: number;
  byteLength(dims: readonly number[]): number;
  encode(values: Float32Array, dims: readonly number[]): Uint8Array;
}

export interface RealLayoutTensor {
  name: string;
  /** GGUF dims, dims[0] contiguous. */
  dims: number[];
  /** Its values (seeded per tensor, so any one can be made alone and in any order). */
  values(seed: number): Float32Array;
}

const count = (dims: readonly number[]) => dims.reduce((a, b) => a * b, 1);

/** Every tensor of the shape's file, with how its random values are drawn. */
export function realLayoutTensors(shape: RealLayoutShape): RealLayoutTensor[] {
  const { arch, dim, nHeads, nKvHeads, ffnDim, vocabSize } = shape;
  const h = headDimOf(shape);
  const [qWidth, kvWidth] = [nHeads * h, nKvHeads * h];
  const specs: { name: string; dims: number[]; draw: (rng: Prng, n: number) => Float32Array }[] = [];
  const add = (name: string, dims: number[], draw: (rng: Prng, n: number) => Float32Array) => specs.push({ name, dims, draw });
  const normal = (std: number) => (rng: Prng, n: number) => randomNormal(rng, n, std);
  const norm = (scale: number) => (rng: Prng, n: number) => Float32Array.from({ length: n }, () => scale * (1 + NORM_JITTER * rng.normal()));

  if (shape.llama3Rope) {
    if (arch !== "llama") throw new Error("llama3Rope is for the llama architecture");
    const factors = llama3RopeFactors(shape.llama3Rope, shape.ropeBase, h);
    add("rope_freqs.weight", [h / 2], () => factors);
  }
  const embeddingStd = 1 / Math.sqrt(dim);
  add("token_embd.weight", [dim, vocabSize], normal(embeddingStd));
  for (let l = 0; l < shape.nLayers; l++) {
    const blk = `blk.${l}`;
    add(`${blk}.attn_norm.weight`, [dim], norm(1));
    add(`${blk}.attn_q.weight`, [dim, qWidth], normal(Math.sqrt(SCORE_STD / dim)));
    add(`${blk}.attn_k.weight`, [dim, kvWidth], normal(Math.sqrt(SCORE_STD / dim)));
    add(`${blk}.attn_v.weight`, [dim, kvWidth], normal(1 / Math.sqrt(dim)));
    if (arch === "qwen2") {
      add(`${blk}.attn_q.bias`, [qWidth], normal(BIAS_STD));
      add(`${blk}.attn_k.bias`, [kvWidth], normal(BIAS_STD));
      add(`${blk}.attn_v.bias`, [kvWidth], normal(BIAS_STD));
    }
    if (arch === "qwen3") {
      // q and k are RMS-normalized per head before RoPE, so their elements have std g and q·k/√h has
      // std g²: g = √SCORE_STD. (√(SCORE_STD/√h) gave scores of std 0.7 and near-uniform attention.)
      const g = Math.sqrt(SCORE_STD);
      add(`${blk}.attn_q_norm.weight`, [h], norm(g));
      add(`${blk}.attn_k_norm.weight`, [h], norm(g));
    }
    add(`${blk}.attn_output.weight`, [qWidth, dim], normal(BRANCH_STD / Math.sqrt(qWidth)));
    add(`${blk}.ffn_norm.weight`, [dim], norm(1));
    add(`${blk}.ffn_gate.weight`, [dim, ffnDim], normal(1 / Math.sqrt(dim)));
    add(`${blk}.ffn_up.weight`, [dim, ffnDim], normal(1 / Math.sqrt(dim)));
    add(`${blk}.ffn_down.weight`, [ffnDim, dim], normal(BRANCH_STD / Math.sqrt(ffnDim)));
  }
  // logit = Σ_i g_i x̂_i E[v][i] over dim terms of std g·embeddingStd: std g, so g = LOGIT_STD.
  add("output_norm.weight", [dim], norm(LOGIT_STD));
  if (!shape.tiedOutput) add("output.weight", [dim, vocabSize], normal(embeddingStd));

  return specs.map(({ name, dims, draw }, index) => ({ name, dims, values: (seed) => draw(new Prng(seed, index), count(dims)) }));
}

/**
 * rope_freqs.weight as the converter computes it (LlamaModel.generate_extra_tensors, in float32 where
 * this uses float64): per frequency base^(-2i/h), 1 where its wavelength is below the high-frequency
 * bound, `factor` above the low-frequency one, a smooth blend between. llama.cpp divides each
 * frequency by its factor.
 */
export function llama3RopeFactors(scaling: Llama3RopeScaling, base: number, headDim: number): Float32Array {
  const { factor, lowFreqFactor, highFreqFactor, originalContextLength } = scaling;
  const lowFreqWavelength = originalContextLength / lowFreqFactor;
  const highFreqWavelength = originalContextLength / highFreqFactor;
  return Float32Array.from({ length: headDim / 2 }, (_, i) => {
    const wavelength = 2 * Math.PI * base ** ((2 * i) / headDim);
    if (wavelength < highFreqWavelength) return 1;
    if (wavelength > lowFreqWavelength) return factor;
    const smooth = (originalContextLength / wavelength - lowFreqFactor) / (highFreqFactor - lowFreqFactor);
    return 1 / ((1 - smooth) / factor + smooth);
  });
}

/** The file's metadata: hyperparameters and the tokenizer, as the converter writes them. */
export function realLayoutMetadata(shape: RealLayoutShape, name: string, fileType = FILE_TYPE_ALL_F32): GgufMetadata {
  const a = shape.arch;
  const h = headDimOf(shape);
  const m: GgufMetadata = {
    "general.architecture": str(a),
    "general.type": str("model"),
    "general.name": str(name),
    [`${a}.block_count`]: u32(shape.nLayers),
    [`${a}.context_length`]: u32(shape.contextLength),
    [`${a}.embedding_length`]: u32(shape.dim),
    [`${a}.feed_forward_length`]: u32(shape.ffnDim),
    [`${a}.attention.head_count`]: u32(shape.nHeads),
    [`${a}.attention.head_count_kv`]: u32(shape.nKvHeads),
    [`${a}.rope.freq_base`]: f32(shape.ropeBase),
    [`${a}.attention.layer_norm_rms_epsilon`]: f32(shape.normEps),
  };
  if (shape.headDim !== undefined || a === "qwen3") {
    m[`${a}.attention.key_length`] = u32(h);
    m[`${a}.attention.value_length`] = u32(h);
  }
  m["general.file_type"] = u32(fileType);
  if (a === "llama") {
    m["llama.vocab_size"] = u32(shape.vocabSize);
    m["llama.rope.dimension_count"] = u32(h);
  }
  m["general.quantization_version"] = u32(QUANTIZATION_VERSION);
  const tokenizer = realTokenizer(shape.tokenizer ?? DEFAULT_TOKENIZER[a]);
  // The converter's LlamaModel writes add_bos_token = false for any 49,152-token vocabulary (meant for
  // Granite; it catches SmolLM2 too).
  const addBos = a === "llama" && shape.vocabSize === 49_152 ? false : tokenizer.addBos;
  return { ...m, ...tokenizerGguf(tokenizer, shape.vocabSize, addBos) };
}

export interface WriteRealLayoutOptions {
  /** general.name; defaults to the architecture and width. */
  name?: string;
  seed?: number;
  /** Matrices as another ggml type; F32 when absent. */
  weights?: WeightEncoder;
}

/** Writes the shape's model to `path`, one tensor in memory at a time. */
export function writeRealLayoutModel(path: string, shape: RealLayoutShape, options: WriteRealLayoutOptions = {}): void {
  const { seed = 1, weights } = options;
  const name = options.name ?? `random ${shape.arch} ${shape.dim}x${shape.nLayers}`;
  const f32Bytes = (v: Float32Array) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  const tensors = realLayoutTensors(shape).map((t): GgufTensorInPieces => {
    const encoder = t.dims.length === 2 ? weights : undefined;
    return {
      name: t.name,
      dims: t.dims,
      ggmlType: encoder?.ggmlType ?? GGML_TYPE_F32,
      byteLength: encoder ? encoder.byteLength(t.dims) : 4 * count(t.dims),
      pieces: () => [encoder ? encoder.encode(t.values(seed), t.dims) : f32Bytes(t.values(seed))],
    };
  });
  writeGgufStream(path, ggufStream(realLayoutMetadata(shape, name, weights?.fileType), tensors));
}
