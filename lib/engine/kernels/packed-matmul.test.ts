// The packed-weight matmuls against ggml itself (test-support/ggml-reference: the libggml-cpu variant
// llama.cpp serves with on this CPU): X rounded exactly as its mul_mat rounds activations for each
// weight type, products equal to its vec_dot up to float32 summation order, and the backward
// product and row gather equal to the same math on the decoded weight.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GGML_TYPE, ggmlTypeName } from "../gguf/ggml-types";
import { encodeBf16, encodeF16 } from "../gguf/half-float";
import { DEQUANTIZABLE_TYPES, dequantizeRows } from "../gguf/weight-types";
import { randomNormal } from "../model/random-tensor";
import { Prng } from "../prng";
import { bitDifference, ggmlDequantizeRows, ggmlMulMat, ggmlQuantizeRows, ggmlRoundActivations } from "../test-support/ggml-reference";
import { roundActivations } from "./activation-rounding";
import { packedWeight, packedWeightFromF32, type PackedWeight } from "./packed-weight";
import type { Kernels } from "./kernels";
import { loadNativeKernels } from "./native";
import { kernelPaths, nativeKernels } from "./testing";

const bytesOf = (a: Float32Array | Uint16Array) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** W[rows, cols] of `type`, encoded as a GGUF would hold it (quantized by ggml). */
function weight(type: number, rows: number, cols: number, seed: number): PackedWeight {
  const values = randomNormal(new Prng(seed), rows * cols, 0.05);
  if (type === GGML_TYPE.F32) return packedWeightFromF32(values, rows, cols);
  if (type === GGML_TYPE.F16) return packedWeight(type, rows, cols, bytesOf(encodeF16(values)));
  if (type === GGML_TYPE.BF16) return packedWeight(type, rows, cols, bytesOf(encodeBf16(values)));
  return packedWeight(type, rows, cols, ggmlQuantizeRows(type, values, cols));
}

const decoded = (w: PackedWeight) => {
  const out = new Float32Array(w.rows * w.cols);
  dequantizeRows(w.type, w.data, out);
  return out;
};

/** Activations with what separates roundings: ties (x·127/amax = k + ½), zero blocks, wide ranges. */
function activations(M: number, cols: number, seed: number): Float32Array {
  const rng = new Prng(seed);
  const x = randomNormal(rng, M * cols);
  for (let i = 0; i < M * cols; i++) {
    const kind = Math.floor(i / 256) % 4;
    if (kind === 1) x[i] = i % 256 === 0 ? 127 : (Math.floor(rng.next() * 254) - 127) + 0.5; // ties at scale 1
    if (kind === 2 && i % 512 < 32) x[i] = 0;
    if (kind === 3) x[i] *= 1e3;
  }
  return x;
}

describe("activation rounding", () => {
  it.each(DEQUANTIZABLE_TYPES.map((t) => [ggmlTypeName(t), t] as const))("for %s weights equals ggml's mul_mat's, bit for bit", (_, type) => {
    const cols = 1024;
    const x = activations(6, cols, type);
    const ours = roundActivations(type, x, x.length, new Float32Array(x.length));
    expect(bitDifference(ours, ggmlRoundActivations(type, x, cols))).toBe("");
  });
});

// Σ|r(x)·w| per element bounds the float32 error of any summation order.
function reference(xr: Float32Array, w: Float32Array, M: number, rows: number, cols: number) {
  const value = new Float64Array(M * rows);
  const scale = new Float64Array(M * rows);
  for (let i = 0; i < M; i++)
    for (let j = 0; j < rows; j++)
      for (let k = 0; k < cols; k++) {
        value[i * rows + j] += xr[i * cols + k] * w[j * cols + k];
        scale[i * rows + j] += Math.abs(xr[i * cols + k] * w[j * cols + k]);
      }
  return { value, scale };
}

function worstError(got: Float32Array, want: ArrayLike<number>, scale: ArrayLike<number>, tolerance: number): number {
  let worst = 0;
  for (let e = 0; e < got.length; e++) worst = Math.max(worst, Math.abs(got[e] - want[e]) / (tolerance * scale[e] + 1e-30));
  return worst;
}

const TOLERANCE = 1e-5;

// 600 rows × 512 cols is over the TypeScript path's 1 MiB decode block; rows > 512, cols 1,280 and
// M = 100 cross the native gemm's NC, KC and MC blocks.
const SHAPES: [number, number, number][] = [[5, 37, 512], [3, 600, 512], [1, 8, 256], [2, 40, 1280], [100, 20, 256]];

// The native addon's x86-64 baseline build too (software F16 conversions, scalar rounding), which
// machines without AVX2 run: switched to for its block, the fastest build restored after.
const paths: [string, () => Kernels][] = [
  ...kernelPaths.map((k): [string, () => Kernels] => [k.name, () => k]),
  ...(nativeKernels ? [["native generic build", () => loadNativeKernels({ variant: "generic" })] as [string, () => Kernels]] : []),
];

describe.each(paths)("packed-weight matmuls (%s)", (_, load) => {
  let kernels: Kernels;
  beforeAll(() => {
    kernels = load();
  });
  afterAll(() => {
    if (nativeKernels) loadNativeKernels();
  });
  const cases = DEQUANTIZABLE_TYPES.flatMap((t) => SHAPES.map(([M, rows, cols]) => [ggmlTypeName(t), M, rows, cols, t] as const));

  it.each(cases)("%s: matmulXWt M=%i rows=%i cols=%i equals ggml's mul_mat", (_, M, rows, cols, type) => {
    const w = weight(type, rows, cols, rows + type);
    const x = activations(M, cols, M + type);
    const want = ggmlMulMat(type, w.data, rows, cols, x);
    const { scale } = reference(roundActivations(type, x, x.length, new Float32Array(x.length)), decoded(w), M, rows, cols);
    const C0 = randomNormal(new Prng(7), M * rows);
    for (const accumulate of [false, true]) {
      const C = C0.slice();
      kernels.matmulXWt(C, x, w, M, accumulate);
      const expected = accumulate ? want.map((v, e) => v + C0[e]) : want;
      const bound = accumulate ? scale.map((s, e) => s + Math.abs(C0[e])) : scale;
      expect(worstError(C, expected, bound, TOLERANCE)).toBeLessThanOrEqual(1);
    }
  });

  it.each(cases)("%s: matmulDyW M=%i rows=%i cols=%i is dY·W on the decoded weight", (_, M, rows, cols, type) => {
    const w = weight(type, rows, cols, rows + type);
    const dY = randomNormal(new Prng(M * 31 + type), M * rows);
    const W = decoded(w);
    const value = new Float64Array(M * cols);
    const scale = new Float64Array(M * cols);
    for (let i = 0; i < M; i++)
      for (let j = 0; j < rows; j++)
        for (let k = 0; k < cols; k++) {
          value[i * cols + k] += dY[i * rows + j] * W[j * cols + k];
          scale[i * cols + k] += Math.abs(dY[i * rows + j] * W[j * cols + k]);
        }
    const C0 = randomNormal(new Prng(9), M * cols);
    for (const accumulate of [false, true]) {
      const C = C0.slice();
      kernels.matmulDyW(C, dY, w, M, accumulate);
      const expected = accumulate ? value.map((v, e) => v + C0[e]) : value;
      const bound = accumulate ? scale.map((s, e) => s + Math.abs(C0[e])) : scale;
      expect(worstError(C, expected, bound, 1e-5)).toBeLessThanOrEqual(1);
    }
  });


  it.each(DEQUANTIZABLE_TYPES.map((t) => [ggmlTypeName(t), t] as const))("%s: gatherRows decodes rows bit for bit as ggml's to_float", (_, type) => {
    const w = weight(type, 9, 512, type);
    const ids = new Int32Array([3, 0, 8, 3]);
    const out = new Float32Array(ids.length * 512);
    kernels.gatherRows(out, w, ids);
    const all = type === GGML_TYPE.F32 ? decoded(w) : ggmlDequantizeRows(type, w.data);
    const want = new Float32Array(Array.from(ids, (id) => [...all.subarray(id * 512, (id + 1) * 512)]).flat());
    expect(bitDifference(out, want)).toBe("");
    expect(() => kernels.gatherRows(out, w, new Int32Array([9]))).toThrow(/outside/);
  });
});

// Q8_0 and Q5_0 weights take ggml's integer block sums (native/packed.c int8_dot, tinyBLAS's lanes on
// every build), so the builds agree to the bit (and with llama.cpp: model/real-layout-parity.test.ts).
describe.runIf(nativeKernels)("integer-block matmulXWt", () => {
  afterAll(() => {
    loadNativeKernels();
  });
  it.each([["Q8_0", GGML_TYPE.Q8_0], ["Q5_0", GGML_TYPE.Q5_0]] as const)("%s: the generic and x86-64-v3 builds agree bit for bit", (_, type) => {
    const [M, rows, cols] = [7, 37, 512];
    const w = weight(type, rows, cols, rows + type);
    const x = activations(M, cols, M + type);
    const product = (variant: "generic" | "fastest") => {
      const C = new Float32Array(M * rows);
      loadNativeKernels({ variant }).matmulXWt(C, x, w, M, false);
      return C;
    };
    expect(bitDifference(product("generic"), product("fastest"))).toBe("");
  });
});
