// The shape of an Anneal llama-architecture model: the contract between the trainer (model/),
// GGUF I/O (gguf/) and serving. Tensor names are GGUF's, so a checkpoint is its own file format.

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
  /** attention.layer_norm_rms_epsilon */
  normEps: number;
}

export const headDim = (c: LlamaConfig): number => c.dim / c.nHeads;

/**
 * Every weight tensor of a model, keyed by its GGUF name, with its logical row-major shape
 * [rows, cols]. A linear layer's weight is W[out][in] (rows = out); GGUF stores it with dims
 * [in, out] (first dim contiguous), which is the same bytes.
 */
export function tensorShapes(c: LlamaConfig): Record<string, [number, number] | [number]> {
  const kvDim = c.nKvHeads * headDim(c);
  const shapes: Record<string, [number, number] | [number]> = {
    "token_embd.weight": [c.vocabSize, c.dim],
    "output_norm.weight": [c.dim],
    "output.weight": [c.vocabSize, c.dim],
  };
  for (let l = 0; l < c.nLayers; l++) {
    const b = `blk.${l}`;
    shapes[`${b}.attn_norm.weight`] = [c.dim];
    shapes[`${b}.attn_q.weight`] = [c.dim, c.dim];
    shapes[`${b}.attn_k.weight`] = [kvDim, c.dim];
    shapes[`${b}.attn_v.weight`] = [kvDim, c.dim];
    shapes[`${b}.attn_output.weight`] = [c.dim, c.dim];
    shapes[`${b}.ffn_norm.weight`] = [c.dim];
    shapes[`${b}.ffn_gate.weight`] = [c.ffnDim, c.dim];
    shapes[`${b}.ffn_up.weight`] = [c.ffnDim, c.dim];
    shapes[`${b}.ffn_down.weight`] = [c.dim, c.ffnDim];
  }
  return shapes;
}

/** A model's weights: GGUF tensor name → float32 data in the row-major layout of tensorShapes. */
export type LlamaWeights = Record<string, Float32Array>;
