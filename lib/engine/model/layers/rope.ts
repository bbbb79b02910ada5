// Rotary position embedding as llama.cpp applies it (ggml_rope_ext, ggml-cpu ops.cpp rotate_pairs):
// within each head, pair i at position t turns by the angle θ = t·base^(−2i/dh) / factor_i, where
//   "norm" (arch llama) pairs the ADJACENT dims (2i, 2i+1),
//   "neox" (qwen2, qwen3) pairs dim i with dim i + dh/2,
// and factor_i is 1 unless the model has frequency factors (Llama 3's rope_freqs.weight).
// A rotation's transpose is the rotation by −θ, so backward is forward with the sine negated.
import type { RopeStyle } from "../config";

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

export function ropeTable(seqLen: number, headDim: number, base: number, options: RopeOptions = {}): RopeTable {
  const half = headDim / 2;
  const factors = options.freqFactors;
  if (factors && factors.length !== half) throw new Error(`RoPE: ${factors.length} frequency factors for ${half} pairs`);
  const cos = new Float32Array(seqLen * half);
  const sin = new Float32Array(seqLen * half);
  for (let t = 0; t < seqLen; t++)
    for (let i = 0; i < half; i++) {
      const theta = t * Math.pow(base, (-2 * i) / headDim);
      const angle = factors ? theta / factors[i] : theta;
      cos[t * half + i] = Math.cos(angle);
      sin[t * half + i] = Math.sin(angle);
    }
  return { seqLen, style: options.style ?? "norm", cos, sin };
}

// x[B,T,nHeads,dh] rotated in place, by +θ (direction 1) or −θ (−1). Pair i is (o+i·step, o+i·step+offset):
// norm: step 2, offset 1; neox: step 1, offset dh/2.
function rotate(x: Float32Array, table: RopeTable, B: number, T: number, nHeads: number, dh: number, direction: 1 | -1): void {
  const half = dh / 2;
  const [step, offset] = table.style === "norm" ? [2, 1] : [1, half];
  for (let b = 0; b < B; b++)
    for (let t = 0; t < T; t++) {
      const angles = t * half;
      for (let h = 0; h < nHeads; h++) {
        const o = ((b * T + t) * nHeads + h) * dh;
        for (let i = 0; i < half; i++) {
          const c = table.cos[angles + i];
          const s = direction * table.sin[angles + i];
          const j = o + i * step;
          const x0 = x[j];
          const x1 = x[j + offset];
          x[j] = x0 * c - x1 * s;
          x[j + offset] = x0 * s + x1 * c;
        }
      }
    }
}

export function ropeForward(x: Float32Array, table: RopeTable, B: number, T: number, nHeads: number, dh: number): void {
  rotate(x, table, B, T, nHeads, dh, 1);
}

// dx (the gradient w.r.t. the rotated values) becomes the gradient w.r.t. the unrotated ones.
export function ropeBackward(dx: Float32Array, table: RopeTable, B: number, T: number, nHeads: number, dh: number): void {
  rotate(dx, table, B, T, nHeads, dh, -1);
}
