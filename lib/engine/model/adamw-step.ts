// The AdamW element update (the TypeScript kernel; native/adamw.c mirrors it). See adamw.ts.
import type { AdamWStepConstants } from "../kernels/kernels";

// w ← w·decay − lr·m̂/(√v̂ + eps) with m̂ = m/c1, v̂ = v/c2, after updating the moments m and v.
export function adamwStep(w: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, n: number, h: AdamWStepConstants): void {
  const { lr, beta1: b1, beta2: b2, eps, c1, c2, decay } = h;
  for (let i = 0; i < n; i++) {
    m[i] = b1 * m[i] + (1 - b1) * g[i];
    v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
    w[i] = w[i] * decay - (lr * (m[i] / c1)) / (Math.sqrt(v[i] / c2) + eps);
  }
}
