// Every buffer one forward/backward pass needs, allocated once for a number of token rows
// M = batch·seqLen and reused across steps (a training step allocates nothing). Shapes in rows.
// With recompute (activation checkpointing) only each block's input is kept from forward, and one
// block's activations are shared by all blocks: backward runs a block's forward again just before
// its backward. Without it every block keeps its own. The output head's buffers are a bounded
// chunk of positions (layers/output-head.ts), not [M,V].
// LoRA adds little: each adapter keeps u [M,rank] (not its input, which the block keeps anyway),
// plus shared scratch: du [M,rank] and, with dropout, two [M,max(D,F)] buffers for the mask and
// the dropped input (regenerated in backward, never kept per adapter). Q = nHeads·headDim is the
// width of q and of the attention output (D unless the heads are widened, as qwen3's are).
import { headDim, kvDim, qDim, type LlamaConfig } from "./config";
import type { LoraConfig, LoraTarget } from "./lora";

/** What one transformer block keeps from forward for backward. */
export interface BlockActivations {
  xn1: Float32Array; // [M,D] attn_norm output
  rstd1: Float32Array; // [M]
  q: Float32Array; // [M,Q] after RoPE
  k: Float32Array; // [M,kvD] after RoPE
  v: Float32Array; // [M,kvD]
  /** Per-head q/k norm only (else empty): q and k before their norm, and each head's rstd. */
  qPre: Float32Array; // [M,Q]
  kPre: Float32Array; // [M,kvD]
  rstdQ: Float32Array; // [M·nHeads]
  rstdK: Float32Array; // [M·nKvHeads]
  att: Float32Array; // [M,Q] attention output, before attn_output
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
  /** Also, in forward, a residual projection's output before it joins the residual. */
  dxn: Float32Array; // [M,D]
  datt: Float32Array; // [M,Q]
  dq: Float32Array; // [M,Q]
  dk: Float32Array; // [M,kvD]
  dv: Float32Array; // [M,kvD]
  /** Per-head q/k norm only (else empty): ∂L/∂q, ∂L/∂k before their norm. */
  dqPre: Float32Array; // [M,Q]
  dkPre: Float32Array; // [M,kvD]
  dgate: Float32Array; // [M,F]
  dup: Float32Array; // [M,F]
  dh: Float32Array; // [M,F]
  /** LoRA (empty otherwise): du [M,rank]; dropout's mask and dropped input [M,max(D,F,Q)] (an
   *  adapter's input is x, h or att); the unused gain gradient [max(D,headDim)] of a frozen norm. */
  loraDu: Float32Array;
  dropMask: Float32Array;
  dropped: Float32Array;
  frozenGain: Float32Array;
}

/** What one step's activations may take: 1.5 GiB (a 0.5B Q8_0 base, ~0.5 GB, and a step then fit in 3 GiB). */
export const STEP_ACTIVATION_BYTES = 1.5 * 2 ** 30;

/** The lean per-token cost a mode can always fall back to (LoRA: recompute; full weights keep all). */
export const recomputesByDefault = (lora: LoraConfig | null): boolean => lora !== null;

/**
 * The model's default (LlamaModelOptions.recompute) for a step of `rows` token rows: full weights keep
 * every block's activations (Anneal's own small bases); LoRA keeps them too while they fit in
 * STEP_ACTIVATION_BYTES (SmolLM2-135M at 512 tokens: ~0.54 GB; a recomputed block costs a third more
 * compute) and recomputes beyond (Qwen2.5-0.5B at 4,096 tokens would keep 8.3 GB). Both give the same bits.
 */
export function recomputesForRows(c: LlamaConfig, lora: LoraConfig | null, rows: number): boolean {
  return lora !== null && rows * activationBytesPerToken(c, lora, false) > STEP_ACTIVATION_BYTES;
}

/** Bytes of these buffers per token row of a step (every one of them scales with the rows): the
 *  memory a training step's activations take is this × its padded tokens, plus the head's fixed chunk. */
export function activationBytesPerToken(c: LlamaConfig, lora: LoraConfig | null, recompute = recomputesByDefault(lora)): number {
  const a = new Activations(c, 1, lora, recompute);
  const blocks = a.recompute ? [a.block(0)] : Array.from({ length: c.nLayers }, (_, l) => a.block(l));
  const arrays = [
    ...a.residual, ...blocks.flatMap((b) => [...Object.values(b).filter((v) => v instanceof Float32Array), ...Object.values(b.loraU)]),
    ...Object.values(a.scratch), a.xnFinal, a.rstdFinal, a.logitsLse, a.logprobs, a.entropies, a.dResidual,
  ] as Float32Array[];
  return arrays.reduce((n, x) => n + x.byteLength, 0) - (lora ? 4 * Math.max(c.dim, headDim(c)) : 0); // frozenGain does not scale
}

export class Activations {
  readonly rows: number;
  /** residual[l] is block l's input, residual[nLayers] the last block's output: [M,D] each. */
  readonly residual: Float32Array[];
  /** One per block, or a single shared one with recompute: use block(l). */
  private readonly blocks: BlockActivations[];
  readonly scratch: BlockScratch;
  readonly xnFinal: Float32Array; // [M,D]
  readonly rstdFinal: Float32Array; // [M]
  readonly logitsLse: Float32Array; // [M] the head's log-sum-exp per position
  readonly logprobs: Float32Array; // [M]
  readonly entropies: Float32Array; // [M]
  /** [M,D] ∂L/∂residual, carried down through the blocks. */
  readonly dResidual: Float32Array;

  constructor(c: LlamaConfig, rows: number, lora: LoraConfig | null, readonly recompute: boolean) {
    const M = rows;
    const [Q, kvD] = [qDim(c), kvDim(c)];
    const qkNorm = c.qkNorm ? M : 0; // rows of the per-head norm buffers
    const f = (n: number) => new Float32Array(n);
    this.rows = M;
    this.residual = Array.from({ length: c.nLayers + 1 }, () => f(M * c.dim));
    this.blocks = Array.from({ length: recompute ? 1 : c.nLayers }, () => ({
      xn1: f(M * c.dim), rstd1: f(M), q: f(M * Q), k: f(M * kvD), v: f(M * kvD),
      qPre: f(qkNorm * Q), kPre: f(qkNorm * kvD), rstdQ: f(qkNorm * c.nHeads), rstdK: f(qkNorm * c.nKvHeads), att: f(M * Q),
      lse: f(M * c.nHeads), resMid: f(M * c.dim), xn2: f(M * c.dim), rstd2: f(M),
      gate: f(M * c.ffnDim), up: f(M * c.ffnDim), h: f(M * c.ffnDim),
      loraU: Object.fromEntries((lora?.targets ?? []).map((t) => [t, f(M * lora!.rank)])),
    }));
    const dropWidth = lora && lora.dropout > 0 ? M * Math.max(c.dim, c.ffnDim, Q) : 0;
    this.scratch = {
      dxn: f(M * c.dim), datt: f(M * Q), dq: f(M * Q), dk: f(M * kvD), dv: f(M * kvD), dqPre: f(qkNorm * Q), dkPre: f(qkNorm * kvD),
      dgate: f(M * c.ffnDim), dup: f(M * c.ffnDim), dh: f(M * c.ffnDim),
      loraDu: f(lora ? M * lora.rank : 0), dropMask: f(dropWidth), dropped: f(dropWidth), frozenGain: f(lora ? Math.max(c.dim, headDim(c)) : 0),
    };
    this.xnFinal = f(M * c.dim);
    this.rstdFinal = f(M);
    this.logitsLse = f(M);
    this.logprobs = f(M);
    this.entropies = f(M);
    this.dResidual = f(M * c.dim);
  }

  /** Block l's activations (with recompute, the one set every block shares). */
  block(l: number): BlockActivations {
    return this.blocks[this.recompute ? 0 : l];
  }
}
