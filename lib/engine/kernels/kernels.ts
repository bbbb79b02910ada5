// The hot loops of training, behind one interface with two implementations: pure TypeScript
// (kernels/ts) and a C addon (native/). All arrays are row-major float32; sizes are in elements.

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

  /** out = softmax(q·kᵀ/√headDim, causal)·v per head; lse = the log of each row's softmax
   *  denominator (scaled scores), kept so backward can recompute probabilities instead of storing
   *  [B,H,T,T] of them. */
  attentionForward(out: Float32Array, lse: Float32Array, q: Float32Array, k: Float32Array, v: Float32Array, s: AttentionShape): void;
  /** Overwrites dq, dk, dv (dk, dv sum over the query heads of each group). */
  attentionBackward(
    dq: Float32Array, dk: Float32Array, dv: Float32Array, dout: Float32Array,
    q: Float32Array, k: Float32Array, v: Float32Array, out: Float32Array, lse: Float32Array, s: AttentionShape,
  ): void;
}
