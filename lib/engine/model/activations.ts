// Every buffer one forward/backward pass needs, allocated once for a number of token rows
// M = batch·seqLen and reused across steps (a training step allocates nothing). Shapes in rows.
// LoRA adds little: each adapter keeps u [M,rank] (not its input, which the block keeps anyway),
// plus shared scratch: du [M,rank] and, with dropout, two [M,max(D,F)] buffers for the mask and
// the dropped input (regenerated in backward, never kept per adapter).
import { headDim, type LlamaConfig } from "./config";
import type { LoraConfig, LoraTarget } from "./lora";

/** What one transformer block keeps from forward for backward. */
export interface BlockActivations {
  xn1: Float32Array; // [M,D] attn_norm output
  rstd1: Float32Array; // [M]
  q: Float32Array; // [M,D] after RoPE
  k: Float32Array; // [M,kvD] after RoPE
  v: Float32Array; // [M,kvD]
  att: Float32Array; // [M,D] attention output, before attn_output
  lse: Float32Array; // [B,H,T] attention log-sum-exp
  resMid: Float32Array; // [M,D] residual after the attention sublayer
  xn2: Float32Array; // [M,D] ffn_norm output
  rstd2: Float32Array; // [M]
  gate: Float32Array; // [M,F]
  up: Float32Array; // [M,F]
  h: Float32Array; // [M,F] silu(gate)·up
  /** LoRA: u = s·drop(x)·Aᵀ [M,rank] per adapted projection. */
  loraU: Partial<Record<LoraTarget, Float32Array>>;
}

/** Gradient buffers shared by all blocks during backward (each block overwrites them). */
export interface BlockScratch {
  dxn: Float32Array; // [M,D]
  datt: Float32Array; // [M,D]
  dq: Float32Array; // [M,D]
  dk: Float32Array; // [M,kvD]
  dv: Float32Array; // [M,kvD]
  dgate: Float32Array; // [M,F]
  dup: Float32Array; // [M,F]
  dh: Float32Array; // [M,F]
  /** LoRA (empty otherwise): du [M,rank]; dropout's mask and dropped input [M,max(D,F)];
   *  the unused gain gradient [D] of a frozen norm. */
  loraDu: Float32Array;
  dropMask: Float32Array;
  dropped: Float32Array;
  frozenGain: Float32Array;
}

export class Activations {
  readonly rows: number;
  /** residual[l] is block l's input, residual[nLayers] the last block's output: [M,D] each. */
  readonly residual: Float32Array[];
  readonly blocks: BlockActivations[];
  readonly scratch: BlockScratch;
  readonly xnFinal: Float32Array; // [M,D]
  readonly rstdFinal: Float32Array; // [M]
  /** [M,V] logits; backward overwrites them with their gradient. */
  readonly logits: Float32Array;
  readonly logitsLse: Float32Array; // [M]
  readonly logprobs: Float32Array; // [M]
  readonly entropies: Float32Array; // [M]
  /** [M,D] ∂L/∂residual, carried down through the blocks. */
  readonly dResidual: Float32Array;

  constructor(c: LlamaConfig, rows: number, lora: LoraConfig | null = null) {
    const M = rows;
    const kvDim = c.nKvHeads * headDim(c);
    const f = (n: number) => new Float32Array(n);
    this.rows = M;
    this.residual = Array.from({ length: c.nLayers + 1 }, () => f(M * c.dim));
    this.blocks = Array.from({ length: c.nLayers }, () => ({
      xn1: f(M * c.dim), rstd1: f(M), q: f(M * c.dim), k: f(M * kvDim), v: f(M * kvDim), att: f(M * c.dim),
      lse: f(M * c.nHeads), resMid: f(M * c.dim), xn2: f(M * c.dim), rstd2: f(M),
      gate: f(M * c.ffnDim), up: f(M * c.ffnDim), h: f(M * c.ffnDim),
      loraU: Object.fromEntries((lora?.targets ?? []).map((t) => [t, f(M * lora!.rank)])),
    }));
    const dropWidth = lora && lora.dropout > 0 ? M * Math.max(c.dim, c.ffnDim) : 0;
    this.scratch = {
      dxn: f(M * c.dim), datt: f(M * c.dim), dq: f(M * c.dim), dk: f(M * kvDim), dv: f(M * kvDim),
      dgate: f(M * c.ffnDim), dup: f(M * c.ffnDim), dh: f(M * c.ffnDim),
      loraDu: f(lora ? M * lora.rank : 0), dropMask: f(dropWidth), dropped: f(dropWidth), frozenGain: f(lora ? c.dim : 0),
    };
    this.xnFinal = f(M * c.dim);
    this.rstdFinal = f(M);
    this.logits = f(M * c.vocabSize);
    this.logitsLse = f(M);
    this.logprobs = f(M);
    this.entropies = f(M);
    this.dResidual = f(M * c.dim);
  }
}
