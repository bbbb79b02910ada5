// Rotary position embedding as llama.cpp applies it (ggml_rope_ext, ggml-cpu ops.cpp rotate_pairs),
// to its bits: within each head, pair i at position t turns by the angle θ = t·base^(−2i/dh) / factor_i, where
//   "norm" (arch llama) pairs the ADJACENT dims (2i, 2i+1),
//   "neox" (qwen2, qwen3) pairs dim i with dim i + dh/2,
// and factor_i is 1 unless the model has frequency factors (Llama 3's rope_freqs.weight).
// A rotation's transpose is the rotation by −θ, so backward is forward with the sine negated.
import type { RopeStyle } from "../config";
import { fmaf } from "./fmaf";

/** cos and sin of every (position, pair) angle: [seqLen, headDim/2], and how pairs are formed. */
export interface RopeTable {
  readonly seqLen: number;
  readonly style: RopeStyle;
  readonly cos: Float32Array;
  readonly sin: Float32Array;
}

export interface RopeOptions {
  /** "norm" when absent. */
  style?: RopeStyle;
  /** [headDim/2]: θ_i is divided by factor_i. */
  freqFactors?: readonly number[];
}

/** float32 cos and sin of float32 angles: Math's (rounded), or the C library's (Kernels.cosSin). */
export function cosSin(cos: Float32Array, sin: Float32Array, angles: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) [cos[i], sin[i]] = [Math.cos(angles[i]), Math.sin(angles[i])];
}

export function ropeTable(seqLen: number, headDim: number, base: number, options: RopeOptions = {}, trig = cosSin): RopeTable {
  const half = headDim / 2;
  const factors = options.freqFactors;
  if (factors && factors.length !== half) throw new Error(`RoPE: ${factors.length} frequency factors for ${half} pairs`);
  // ggml_rope_cache_init's float32 recurrence, not t·base^(−2i/dh) in one step: θ starts at t and is
  // multiplied by powf(base, −2/dh) after each pair, rounding each time, so the angles are ggml's bits.
  const angles = new Float32Array(seqLen * half);
  const thetaScale = Math.fround(Math.pow(Math.fround(base), Math.fround(-2 / headDim)));
  for (let t = 0; t < seqLen; t++) {
    let theta = Math.fround(t);
    for (let i = 0; i < half; i++) {
      angles[t * half + i] = factors ? theta / Math.fround(factors[i]) : theta;
      theta = Math.fround(theta * thetaScale);
    }
  }
  const cos = new Float32Array(seqLen * half);
  const sin = new Float32Array(seqLen * half);
  trig(cos, sin, angles, angles.length);
  return { seqLen, style: options.style ?? "norm", cos, sin };
}

// x[rows,nHeads,dh] rotated in place, row r at position positionOf(r), by +θ (direction 1) or −θ (−1).
// Pair i is (o+i·step, o+i·step+offset): norm: step 2, offset 1; neox: step 1, offset dh/2.
function rotate(
  x: Float32Array, table: RopeTable, rows: number, positionOf: (row: number) => number, nHeads: number, dh: number, direction: 1 | -1,
): void {
  const half = dh / 2;
  const [step, offset] = table.style === "norm" ? [2, 1] : [1, half];
  for (let r = 0; r < rows; r++) {
    const angles = positionOf(r) * half;
    for (let h = 0; h < nHeads; h++) {
      const o = (r * nHeads + h) * dh;
      for (let i = 0; i < half; i++) {
        const c = table.cos[angles + i];
        const s = direction * table.sin[angles + i];
        const j = o + i * step;
        const x0 = x[j];
        const x1 = x[j + offset];
        // rotate_pairs' x0·cos − x1·sin and x0·sin + x1·cos, as its compiler fuses them: the first
        // product into the sum (max |Δ| of a float32 base: 22 of 32 positions exact this way, 1 unfused).
        x[j] = fmaf(x0, c, -Math.fround(x1 * s));
        x[j + offset] = fmaf(x0, s, Math.fround(x1 * c));
      }
    }
  }
}

// x[B,T,nHeads,dh]: position t of each sequence turns by t's angles.
export function ropeForward(x: Float32Array, table: RopeTable, B: number, T: number, nHeads: number, dh: number): void {
  rotate(x, table, B * T, (r) => r % T, nHeads, dh, 1);
}

// x[rows,nHeads,dh], each row a token at its own position (incremental decoding: kv-decoder.ts).
export function ropeAt(x: Float32Array, table: RopeTable, positions: ArrayLike<number>, nHeads: number, dh: number): void {
  rotate(x, table, positions.length, (r) => positions[r], nHeads, dh, 1);
}

// dx (the gradient w.r.t. the rotated values) becomes the gradient w.r.t. the unrotated ones.
export function ropeBackward(dx: Float32Array, table: RopeTable, B: number, T: number, nHeads: number, dh: number): void {
  rotate(dx, table, B * T, (r) => r % T, nHeads, dh, -1);
}
