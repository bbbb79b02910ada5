// Rotary position embedding as llama.cpp applies it for arch `llama`: within each head, the
// ADJACENT pair (2i, 2i+1) at position t turns by the angle t·base^(−2i/dh). A rotation's
// transpose is the rotation by −angle, so backward is forward with the sine negated.

/** cos and sin of every (position, pair) angle: [seqLen, headDim/2]. */
export interface RopeTable {
  readonly seqLen: number;
  readonly cos: Float32Array;
  readonly sin: Float32Array;
}

export function ropeTable(seqLen: number, headDim: number, base: number): RopeTable {
  const half = headDim / 2;
  const cos = new Float32Array(seqLen * half);
  const sin = new Float32Array(seqLen * half);
  for (let t = 0; t < seqLen; t++)
    for (let i = 0; i < half; i++) {
      const angle = t * Math.pow(base, (-2 * i) / headDim);
      cos[t * half + i] = Math.cos(angle);
      sin[t * half + i] = Math.sin(angle);
    }
  return { seqLen, cos, sin };
}

// x[B,T,nHeads,dh] rotated in place, by +angle (direction 1) or −angle (−1).
function rotate(x: Float32Array, table: RopeTable, B: number, T: number, nHeads: number, dh: number, direction: 1 | -1): void {
  const half = dh / 2;
  for (let b = 0; b < B; b++)
    for (let t = 0; t < T; t++) {
      const angles = t * half;
      for (let h = 0; h < nHeads; h++) {
        const o = ((b * T + t) * nHeads + h) * dh;
        for (let i = 0; i < half; i++) {
          const c = table.cos[angles + i];
          const s = direction * table.sin[angles + i];
          const x0 = x[o + 2 * i];
          const x1 = x[o + 2 * i + 1];
          x[o + 2 * i] = x0 * c - x1 * s;
          x[o + 2 * i + 1] = x0 * s + x1 * c;
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
