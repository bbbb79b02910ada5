// The hot loops of training, behind one interface with two implementations: pure TypeScript and a
// C addon (lib/engine/native). The TypeScript matmul and attention live in kernels/ts; the
// TypeScript versions of the elementwise layers are the layers themselves (model/layers/*), where
// their math is explained. All arrays are row-major float32; sizes are in elements.
import type { PackedWeight } from "./packed-weight";

/** Shapes of one causal self-attention call. q, out: [batch, seqLen, nHeads, headDim];
 *  k, v: [batch, seqLen, nKvHeads, headDim]; lse: [batch, nHeads, seqLen]. Query head h reads
 *  kv head floor(h / (nHeads / nKvHeads)), as llama.cpp broadcasts grouped KV heads. */
export interface AttentionShape {
  batch: number;
  seqLen: number;
  nHeads: number;
  nKvHeads: number;
  headDim: number;
}

export interface Kernels {
  readonly name: "ts" | "native";
  /** Which native build runs ("x86-64-v3", "generic") or "ts". */
  readonly variant: string;

  /** C[M,N] = A[M,K]·B[N,K]ᵀ, or += when accumulate. */
  matmulABt(C: Float32Array, A: Float32Array, B: Float32Array, M: number, K: number, N: number, accumulate: boolean): void;
  /** C[M,N] = A[M,K]·B[K,N], or += when accumulate. */
  matmulAB(C: Float32Array, A: Float32Array, B: Float32Array, M: number, K: number, N: number, accumulate: boolean): void;
  /** C[K,N] = A[M,K]ᵀ·B[M,N], or += when accumulate. */
  matmulAtB(C: Float32Array, A: Float32Array, B: Float32Array, M: number, K: number, N: number, accumulate: boolean): void;

  /** C[M,rows] = r(X)[M,cols]·Wᵀ, or += when accumulate, for a frozen weight W[rows,cols] kept in its
   *  file encoding; r rounds X as ggml's CPU backend does for W's type (activation-rounding.ts), so
   *  the product is the one llama.cpp computes. */
  matmulXWt(C: Float32Array, X: Float32Array, W: PackedWeight, M: number, accumulate: boolean): void;
  /** C[M,cols] = dY[M,rows]·W, or += when accumulate: the gradient through a frozen W (no rounding). */
  matmulDyW(C: Float32Array, dY: Float32Array, W: PackedWeight, M: number, accumulate: boolean): void;
  /** out[i, :] = row ids[i] of W, decoded to float32 exactly as ggml decodes it (an embedding lookup). */
  gatherRows(out: Float32Array, W: PackedWeight, ids: Int32Array): void;

  /** out = softmax(q·kᵀ/√headDim, causal)·v per head; lse = the log of each row's softmax
   *  denominator (scaled scores), kept so backward can recompute probabilities instead of storing
   *  [B,H,T,T] of them. */
  attentionForward(out: Float32Array, lse: Float32Array, q: Float32Array, k: Float32Array, v: Float32Array, s: AttentionShape): void;
  /** Overwrites dq, dk, dv (dk, dv sum over the query heads of each group). */
  attentionBackward(
    dq: Float32Array, dk: Float32Array, dv: Float32Array, dout: Float32Array,
    q: Float32Array, k: Float32Array, v: Float32Array, out: Float32Array, lse: Float32Array, s: AttentionShape,
  ): void;

  /** See model/layers/rmsnorm.ts. */
  rmsnormForward(y: Float32Array, rstd: Float32Array, x: Float32Array, g: Float32Array, M: number, D: number, eps: number): void;
  rmsnormBackward(
    dx: Float32Array, dg: Float32Array, dy: Float32Array, x: Float32Array, g: Float32Array, rstd: Float32Array, M: number, D: number,
  ): void;
  /** cos[i], sin[i] of float32 angles[i] as C's cosf and sinf give them (ggml's RoPE calls them;
   *  JavaScript's Math.cos rounded to float32 differs in ~2% of angles). */
  cosSin(cos: Float32Array, sin: Float32Array, angles: Float32Array, n: number): void;
  /** See model/layers/swiglu.ts. */
  swigluForward(h: Float32Array, gate: Float32Array, up: Float32Array, n: number): void;
  swigluBackward(dgate: Float32Array, dup: Float32Array, dh: Float32Array, gate: Float32Array, up: Float32Array, n: number): void;
  /** See model/layers/token-logprobs.ts. */
  tokenLogprobsForward(
    logprobs: Float32Array, entropies: Float32Array, lse: Float32Array, logits: Float32Array, targets: Int32Array, M: number, V: number,
  ): void;
  tokenLogprobsBackward(
    logits: Float32Array, lse: Float32Array, entropies: Float32Array, targets: Int32Array,
    dLogprobs: Float32Array, dEntropies: Float32Array | null, M: number, V: number,
  ): void;
  /** See model/adamw.ts. */
  adamwStep(w: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, n: number, h: AdamWStepConstants): void;
}

/** The loop-invariant numbers of one AdamW update of one tensor. */
export interface AdamWStepConstants {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  /** Bias corrections 1 − β₁ᵗ and 1 − β₂ᵗ. */
  c1: number;
  c2: number;
  /** 1 − lr·λ for decayed tensors, 1 for the others. */
  decay: number;
}
