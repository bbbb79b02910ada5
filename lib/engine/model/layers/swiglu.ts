// SwiGLU's gate: h = silu(gate) · up, with silu(g) = g·σ(g). (The three projections around it are
// linear layers.)

// h[n] = silu(gate[n]) · up[n]
export function swigluForward(h: Float32Array, gate: Float32Array, up: Float32Array, n: number): void {
  for (let i = 0; i < n; i++) {
    const g = gate[i];
    h[i] = (g / (1 + Math.exp(-g))) * up[i];
  }
}

// dgate, dup (overwritten) from dh; silu'(g) = σ(g)·(1 + g·(1 − σ(g))).
export function swigluBackward(
  dgate: Float32Array, dup: Float32Array, dh: Float32Array, gate: Float32Array, up: Float32Array, n: number,
): void {
  for (let i = 0; i < n; i++) {
    const g = gate[i];
    const sig = 1 / (1 + Math.exp(-g));
    dup[i] = dh[i] * g * sig;
    dgate[i] = dh[i] * up[i] * sig * (1 + g * (1 - sig));
  }
}
