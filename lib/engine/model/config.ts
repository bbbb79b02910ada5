// The shape of a llama-family model: the contract between the trainer (model/), GGUF I/O (gguf/)
// and serving. Tensor names are GGUF's, so a checkpoint is its own file format.
//
// Anneal's own models are plain `llama` (the optional fields all absent). The chat models people
// download differ from it in a few ways llama.cpp's graphs spell out (src/models/{llama,qwen2,qwen3}.cpp):
//   llama (Llama 3.x, SmolLM2): Llama 3's RoPE frequency factors (rope_freqs.weight), a tied output.
//   qwen2 (Qwen2.5): NEOX RoPE, q/k/v biases, a tied output.
//   qwen3: NEOX RoPE, heads wider than dim/nHeads (attention.key_length), per-head RMSNorm of q and k
//          before RoPE, a tied output.

export type LlamaArch = "llama" | "qwen2" | "qwen3";

/** RoPE's pairing within a head (ggml's rope modes): "norm" turns the adjacent pair (2i, 2i+1),
 *  "neox" the pair (i, i + headDim/2). */
export type RopeStyle = "norm" | "neox";

export interface LlamaConfig {
  vocabSize: number;
  /** embedding_length: the residual stream width. */
  dim: number;
  /** block_count */
  nLayers: number;
  /** attention.head_count */
  nHeads: number;
  /** attention.head_count_kv (grouped-query attention when < nHeads) */
  nKvHeads: number;
  /** feed_forward_length: SwiGLU hidden width. */
  ffnDim: number;
  /** context_length: the longest sequence the model is trained and served at. */
  contextLength: number;
  /** rope.freq_base */
  ropeBase: number;
  /** attention.layer_norm_rms_epsilon (every RMSNorm of the model, q/k norms included) */
  normEps: number;

  // What real checkpoints add; absent means Anneal's plain llama.
  /** general.architecture; "llama" when absent. */
  arch?: LlamaArch;
  /** attention.key_length (= value_length): each head's width; dim / nHeads when absent. */
  headDim?: number;
  /** "norm" when absent (llama); qwen2 and qwen3 are "neox". */
  ropeStyle?: RopeStyle;
  /** rope.dimension_count: how many of a head's dims RoPE turns. llama.cpp's llama, qwen2 and qwen3
   *  graphs assert it equals headDim, so it must (configProblems). */
  ropeDim?: number;
  /** Llama 3's rope_freqs.weight, [ropeDim/2]: pair i turns by θ_i / factor_i (ggml_rope_ext's
   *  freq_factors). A constant of the architecture, not a weight: it is never trained. */
  ropeFreqFactors?: readonly number[];
  /** blk.N.attn_{q,k,v}.bias, added after the projections (qwen2). */
  qkvBias?: boolean;
  /** blk.N.attn_{q,k}_norm.weight [headDim]: RMSNorm of each head of q and k before RoPE (qwen3). */
  qkNorm?: boolean;
  /** No output.weight: the logits use token_embd.weight. */
  tiedOutput?: boolean;
}

export const headDim = (c: LlamaConfig): number => c.headDim ?? c.dim / c.nHeads;
/** Width of q and of the attention output: nHeads·headDim (dim, unless heads are widened). */
export const qDim = (c: LlamaConfig): number => c.nHeads * headDim(c);
export const kvDim = (c: LlamaConfig): number => c.nKvHeads * headDim(c);
export const archOf = (c: LlamaConfig): LlamaArch => c.arch ?? "llama";
export const ropeStyleOf = (c: LlamaConfig): RopeStyle => c.ropeStyle ?? "norm";

/** What makes a config one the trainer cannot run (none: it can). */
export function configProblems(c: LlamaConfig): string[] {
  const dh = headDim(c);
  const problems = [
    !(Number.isInteger(dh) && dh > 0) && (c.headDim === undefined ? "dim must be a multiple of nHeads" : "headDim must be a positive integer"),
    dh % 2 !== 0 && "head dimension must be even for RoPE",
    c.nHeads % c.nKvHeads !== 0 && "nHeads must be a multiple of nKvHeads",
    c.ropeDim !== undefined && c.ropeDim !== dh && "ropeDim must equal the head dimension (RoPE on part of a head is not supported)",
    c.ropeFreqFactors !== undefined && c.ropeFreqFactors.length !== dh / 2 && "ropeFreqFactors must hold headDim/2 factors",
  ];
  return problems.filter((p): p is string => typeof p === "string");
}

/** The tensor the logits are computed with: output.weight, or token_embd.weight when tied. */
export const outputWeightName = (c: LlamaConfig): string => (c.tiedOutput ? "token_embd.weight" : "output.weight");

/** Anneal's own architecture: plain llama, which is all its GGUF writer writes. */
export function isPlainLlama(c: LlamaConfig): boolean {
  return (
    archOf(c) === "llama" && headDim(c) === c.dim / c.nHeads && ropeStyleOf(c) === "norm" && (c.ropeDim ?? headDim(c)) === headDim(c) &&
    !c.ropeFreqFactors && !c.qkvBias && !c.qkNorm && !c.tiedOutput
  );
}

export const ROPE_FREQS = "rope_freqs.weight";

/**
 * Every learned tensor of a model (what training reads and may update), keyed by its GGUF name, with
 * its logical row-major shape [rows, cols]. A linear layer's weight is W[out][in] (rows = out); GGUF
 * stores it with dims [in, out] (first dim contiguous), which is the same bytes. The order is the
 * storage order of a ParameterSet and the draw order of initWeights.
 */
export function weightShapes(c: LlamaConfig): Record<string, [number, number] | [number]> {
  const [q, kv, dh] = [qDim(c), kvDim(c), headDim(c)];
  const shapes: Record<string, [number, number] | [number]> = {
    "token_embd.weight": [c.vocabSize, c.dim],
    "output_norm.weight": [c.dim],
  };
  if (!c.tiedOutput) shapes["output.weight"] = [c.vocabSize, c.dim];
  for (let l = 0; l < c.nLayers; l++) {
    const b = `blk.${l}`;
    shapes[`${b}.attn_norm.weight`] = [c.dim];
    shapes[`${b}.attn_q.weight`] = [q, c.dim];
    shapes[`${b}.attn_k.weight`] = [kv, c.dim];
    shapes[`${b}.attn_v.weight`] = [kv, c.dim];
    if (c.qkvBias) {
      shapes[`${b}.attn_q.bias`] = [q];
      shapes[`${b}.attn_k.bias`] = [kv];
      shapes[`${b}.attn_v.bias`] = [kv];
    }
    if (c.qkNorm) {
      shapes[`${b}.attn_q_norm.weight`] = [dh];
      shapes[`${b}.attn_k_norm.weight`] = [dh];
    }
    shapes[`${b}.attn_output.weight`] = [c.dim, q];
    shapes[`${b}.ffn_norm.weight`] = [c.dim];
    shapes[`${b}.ffn_gate.weight`] = [c.ffnDim, c.dim];
    shapes[`${b}.ffn_up.weight`] = [c.ffnDim, c.dim];
    shapes[`${b}.ffn_down.weight`] = [c.dim, c.ffnDim];
  }
  return shapes;
}

/** Every tensor of the model's GGUF file: its weights, and rope_freqs.weight when it has factors. */
export function tensorShapes(c: LlamaConfig): Record<string, [number, number] | [number]> {
  return c.ropeFreqFactors ? { [ROPE_FREQS]: [c.ropeFreqFactors.length], ...weightShapes(c) } : weightShapes(c);
}

/** A model's weights: GGUF tensor name → float32 data in the row-major layout of weightShapes. */
export type LlamaWeights = Record<string, Float32Array>;
