import { describe, expect, it } from "vitest";
import { Prng } from "../prng";
import { randomNormal } from "../model/random-tensor";
import type { Kernels } from "./kernels";
import { kernelPaths, nativeKernels, nativeRequired } from "./testing";
import { tsKernels } from "./ts";

type Variant = "ABt" | "AB" | "AtB";

// Element (i, j) of each product in float64, plus Σ|a·b| which bounds float32 rounding error.
function reference(variant: Variant, A: Float32Array, B: Float32Array, M: number, K: number, N: number) {
  const [rows, cols, inner] = variant === "AtB" ? [K, N, M] : [M, N, K];
  const a = (i: number, k: number) => (variant === "AtB" ? A[k * K + i] : A[i * K + k]);
  const b = (k: number, j: number) => (variant === "ABt" ? B[j * K + k] : B[k * N + j]);
  const value = new Float64Array(rows * cols);
  const magnitude = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++)
      for (let k = 0; k < inner; k++) {
        value[i * cols + j] += a(i, k) * b(k, j);
        magnitude[i * cols + j] += Math.abs(a(i, k) * b(k, j));
      }
  return { value, magnitude, size: rows * cols };
}

function run(kernels: Kernels, variant: Variant, C: Float32Array, A: Float32Array, B: Float32Array, M: number, K: number, N: number, acc: boolean) {
  const fn = { ABt: kernels.matmulABt, AB: kernels.matmulAB, AtB: kernels.matmulAtB }[variant];
  fn(C, A, B, M, K, N, acc);
}

// Relative to Σ|a·b|, float32 sums stay far inside 1e-5 for these sizes.
const TOLERANCE = 1e-5;

// Odd sizes cover ragged tiles; 270 > KC, 530 > NC and 130 > MC cover the native blocking loops.
const SIZES: [number, number, number][] = [[1, 1, 1], [7, 13, 5], [20, 270, 530], [130, 64, 17]];

describe.each(kernelPaths.map((k) => [k.name, k] as const))("matmul (%s)", (_, kernels) => {
  for (const variant of ["ABt", "AB", "AtB"] as const)
    it.each(SIZES)(`${variant} M=%i K=%i N=%i, assigning and accumulating`, (M, K, N) => {
      const rng = new Prng(M * 1000 + K * 10 + N);
      const A = randomNormal(rng, M * K);
      const B = randomNormal(rng, (variant === "AtB" ? M : K) * N);
      const ref = reference(variant, A, B, M, K, N);
      const C0 = randomNormal(rng, ref.size);
      for (const acc of [false, true]) {
        const C = C0.slice();
        run(kernels, variant, C, A, B, M, K, N, acc);
        let worst = 0; // error over its allowed scale; must stay ≤ 1
        for (let e = 0; e < ref.size; e++) {
          const want = ref.value[e] + (acc ? C0[e] : 0);
          const scale = ref.magnitude[e] + (acc ? Math.abs(C0[e]) : 0);
          worst = Math.max(worst, Math.abs(C[e] - want) / (TOLERANCE * scale + 1e-30));
        }
        expect(worst).toBeLessThanOrEqual(1);
      }
    });
});

describe("native matmul", () => {
  it.runIf(nativeRequired)("loads (run with ANNEAL_KERNELS=ts to test without the addon)", () => {
    expect(nativeKernels?.name).toBe("native");
  });

  it.runIf(nativeKernels !== null)("agrees with the TypeScript path on a model-sized product", () => {
    const [M, K, N] = [256, 256, 704];
    const rng = new Prng(5);
    const A = randomNormal(rng, M * K);
    const B = randomNormal(rng, N * K);
    const ts = new Float32Array(M * N);
    const native = new Float32Array(M * N);
    tsKernels.matmulABt(ts, A, B, M, K, N, false);
    nativeKernels!.matmulABt(native, A, B, M, K, N, false);
    let worst = 0;
    for (let e = 0; e < M * N; e++) worst = Math.max(worst, Math.abs(ts[e] - native[e]) / (Math.abs(ts[e]) + Math.sqrt(K)));
    // Σ|a·b| ≈ 0.8·K for unit normals; √K is the typical |c|: compare against the larger scale.
    expect(worst).toBeLessThan(TOLERANCE);
  });

  it.runIf(nativeKernels !== null)("rejects an array shorter than its shape instead of reading past it", () => {
    const A = new Float32Array(6);
    expect(() => nativeKernels!.matmulAB(new Float32Array(4), A, new Float32Array(5), 2, 3, 2, false)).toThrow(/shorter/);
  });
});
