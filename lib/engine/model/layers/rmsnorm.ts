// RMSNorm (llama): y = x · rstd · g with rstd = 1/√(mean(x²) + eps), per row; no mean, no bias.

const fround = Math.fround;

// y[M,D], rstd[M] from x[M,D] and gain g[D]. rstd is kept for backward. Rounded as ggml's rms_norm
// (ops.cpp) rounds: float squares summed in double, the mean and 1/√ in float, then x·rstd·g in
// float. A last-bit difference here would flip the Q8_0/BF16 rounding of a projection's input and
// move a peaked model's log-probs by 0.1.
export function rmsnormForward(
  y: Float32Array, rstd: Float32Array, x: Float32Array, g: Float32Array, M: number, D: number, eps: number,
): void {
  for (let m = 0; m < M; m++) {
    const o = m * D;
    let ss = 0;
    for (let j = 0; j < D; j++) ss += fround(x[o + j] * x[o + j]);
    const r = fround(1 / fround(Math.sqrt(fround(fround(ss / D) + fround(eps)))));
    rstd[m] = r;
    for (let j = 0; j < D; j++) y[o + j] = fround(x[o + j] * r) * g[j];
  }
}

// dx[M,D] += ∂/∂x, dg[D] += ∂/∂g, given dy[M,D]. With y_j = x_j·r·g_j and ∂r/∂x_k = −r³x_k/D:
// dx_k = r·g_k·dy_k − x_k·r³/D · Σ_j dy_j·g_j·x_j.
export function rmsnormBackward(
  dx: Float32Array, dg: Float32Array, dy: Float32Array, x: Float32Array, g: Float32Array, rstd: Float32Array,
  M: number, D: number,
): void {
  for (let m = 0; m < M; m++) {
    const o = m * D;
    const r = rstd[m];
    let dot = 0;
    for (let j = 0; j < D; j++) {
      dot += dy[o + j] * g[j] * x[o + j];
      dg[j] += dy[o + j] * x[o + j] * r;
    }
    const c = (r * r * r * dot) / D;
    for (let j = 0; j < D; j++) dx[o + j] += r * g[j] * dy[o + j] - x[o + j] * c;
  }
}
