// The output head, a bounded chunk of positions at a time: the final hidden state xn[M,D] →
// logits[·,V] = xn·Wᵀ → log π(target) and entropy (token-logprobs.ts). Only positions with a
// target run (targets[m] ≥ 0): a prompt token that carries no loss, or padding, costs nothing. The
// logits of a batch ([M,V]: 2.5 GB for 4,096 tokens of a 152k vocabulary) are never held: forward
// keeps each position's log-sum-exp, and backward recomputes one chunk's logits, turns them into
// their gradient and sends it down (∂L/∂xn, and W's gradient when W trains). Every row's logits
// are computed by the same kernel call on the same inputs in forward and backward, and a matmul's
// rows do not depend on the other rows, so the recomputed logits are forward's bits.
import type { Kernels } from "../../kernels";
import type { Weight } from "../frozen-base";
import { linearBackward, linearForward } from "./linear";

/** Floats of one chunk's logits (64 MB): the chunk is min(256, this / V) positions. */
const CHUNK_FLOATS = 1 << 24;
const MAX_CHUNK_ROWS = 256;

export const headChunkRows = (V: number): number => Math.max(1, Math.min(MAX_CHUNK_ROWS, Math.floor(CHUNK_FLOATS / V)));

export class OutputHead {
  /** Positions per chunk. */
  readonly rows: number;
  private readonly x: Float32Array; // [C,D] the chunk's rows of xn
  private readonly dx: Float32Array; // [C,D]
  private readonly logits: Float32Array; // [C,V]
  private readonly at: Int32Array; // [C] the chunk's positions in the batch
  private readonly targets: Int32Array; // [C]
  private readonly lp: Float32Array; // [C] log π, then ∂L/∂log π
  private readonly ent: Float32Array; // [C] entropy, then ∂L/∂H
  private readonly entKept: Float32Array; // [C]
  private readonly lse: Float32Array; // [C]

  /** maxRows: a smaller chunk than the memory bound allows (tests cross chunk edges with it). */
  constructor(private readonly D: number, private readonly V: number, maxRows = MAX_CHUNK_ROWS) {
    const C = Math.min(maxRows, headChunkRows(V));
    this.rows = C;
    this.x = new Float32Array(C * D);
    this.dx = new Float32Array(C * D);
    this.logits = new Float32Array(C * V);
    this.at = new Int32Array(C);
    this.targets = new Int32Array(C);
    [this.lp, this.ent, this.entKept, this.lse] = [0, 1, 2, 3].map(() => new Float32Array(C));
  }

  /** logprobs[M], entropies[M], lse[M] from xn[M,D] and the head W[V,D]; 0 where targets[m] < 0. */
  forward(k: Kernels, logprobs: Float32Array, entropies: Float32Array, lse: Float32Array, xn: Float32Array, W: Weight, targets: Int32Array, M: number): void {
    logprobs.fill(0, 0, M);
    entropies.fill(0, 0, M);
    lse.fill(0, 0, M);
    this.eachChunk(M, (m) => targets[m] >= 0, (n) => {
      this.chunkLogits(k, xn, W, targets, n);
      k.tokenLogprobsForward(this.lp, this.ent, this.lse, this.logits, this.targets, n, this.V);
      for (let i = 0; i < n; i++) {
        const m = this.at[i];
        [logprobs[m], entropies[m], lse[m]] = [this.lp[i], this.ent[i], this.lse[i]];
      }
    });
  }

  /**
   * dxn[M,D] = ∂L/∂xn (zero at positions without a gradient); dW[V,D] += ∂L/∂W unless null (a
   * frozen head). dLogprobs, dEntropies[M] as model.backward takes them; lse and entropies are
   * forward's. Positions whose two gradients are both zero are skipped.
   */
  backward(
    k: Kernels, dxn: Float32Array, dW: Float32Array | null, xn: Float32Array, W: Weight, targets: Int32Array,
    lse: Float32Array, entropies: Float32Array, dLogprobs: Float32Array, dEntropies: Float32Array | null, M: number,
  ): void {
    const { D, V } = this;
    dxn.fill(0, 0, M * D);
    const carries = (m: number) => targets[m] >= 0 && (dLogprobs[m] !== 0 || (dEntropies !== null && dEntropies[m] !== 0));
    this.eachChunk(M, carries, (n) => {
      this.chunkLogits(k, xn, W, targets, n);
      for (let i = 0; i < n; i++) {
        const m = this.at[i];
        [this.lse[i], this.entKept[i], this.lp[i], this.ent[i]] = [lse[m], entropies[m], dLogprobs[m], dEntropies ? dEntropies[m] : 0];
      }
      k.tokenLogprobsBackward(this.logits, this.lse, this.entKept, this.targets, this.lp, this.ent, n, V);
      linearBackward(k, this.dx, dW, this.logits, this.x, W, n, D, V, false);
      for (let i = 0; i < n; i++) dxn.set(this.dx.subarray(i * D, (i + 1) * D), this.at[i] * D);
    });
  }

  /** The logits [P,V] at the given positions (inference: generation, parity checks). */
  logitsAt(k: Kernels, xn: Float32Array, W: Weight, positions: ArrayLike<number>): Float32Array {
    const out = new Float32Array(positions.length * this.V);
    const noTargets = new Int32Array(0);
    for (let start = 0; start < positions.length; start += this.rows) {
      const n = Math.min(this.rows, positions.length - start);
      for (let i = 0; i < n; i++) this.at[i] = positions[start + i];
      this.chunkLogits(k, xn, W, noTargets, n);
      out.set(this.logits.subarray(0, n * this.V), start * this.V);
    }
    return out;
  }

  // Fills at[0..n) chunk by chunk with the positions m < M that pass `keep`, calling run(n) on each.
  private eachChunk(M: number, keep: (m: number) => boolean, run: (n: number) => void): void {
    let n = 0;
    for (let m = 0; m < M; m++) {
      if (!keep(m)) continue;
      this.at[n++] = m;
      if (n === this.rows) {
        run(n);
        n = 0;
      }
    }
    if (n > 0) run(n);
  }

  // x, targets ← the rows at at[0..n); logits[n,V] = x·Wᵀ.
  private chunkLogits(k: Kernels, xn: Float32Array, W: Weight, targets: Int32Array, n: number): void {
    const D = this.D;
    for (let i = 0; i < n; i++) {
      const m = this.at[i];
      this.x.set(xn.subarray(m * D, (m + 1) * D), i * D);
      this.targets[i] = targets.length ? targets[m] : -1;
    }
    linearForward(k, this.logits, this.x, W, n, D, this.V);
  }
}
