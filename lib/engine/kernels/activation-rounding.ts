// How ggml's CPU backend rounds the activations X before multiplying them by a weight of a given
// type: its mul_mat converts each row of X to the weight type's `vec_dot_type` (ggml-cpu.c
// type_traits_cpu) and takes dot products in that encoding. Training that should compute what
// llama.cpp serves applies the same rounding to X (and multiplies the decoded values in float32).
//
// The encodings, as the x86 build the shipped libggml-cpu-haswell runs them (AVX2 paths of
// arch/x86/quants.c and repack.cpp):
//   F16 / BF16: round to nearest even (F16C's cvtps_ph; ggml_cpu_fp32_to_bf16).
//   Q8_0 / Q8_1 (blocks of 32): amax = max|x|, d = F16(amax/127), q = rne(x·(127/amax)); x ≈ q·d.
//     (The reference quantize_row_q8_0_ref rounds half away from zero; the AVX2 path, which serving
//     runs, rounds half to even.) Q8_1 also stores s = F16((amax/127)·Σq), which Q4_1/Q5_1's dot
//     products multiply by the block's min m instead of Σ(q·d): q8_1SumErrors gives s − Σ(q·d) per
//     block, so a matmul can add m·(s − Σ(q·d)) and compute exactly ggml's terms.
//   Q8_K (blocks of 256, quantize_row_q8_K_ref on x86): iscale = −127/max, d = 1/iscale (float32),
//     q = nearest_int(x·iscale) (half to even); x ≈ q·d. The Q4_0 and Q4_K weights llama.cpp repacks
//     for AVX2 quantize X with ggml_quantize_mat_q8_0_4x8 / q8_K_4x8, which give the same values.
import { GGML_TYPE } from "../gguf/ggml-types";
import { encodeBf16, encodeF16, halfBitsTable } from "../gguf/half-float";
import type { GgmlType } from "./packed-weight";

export type ActivationRounding = "none" | "f16" | "bf16" | "q8_0" | "q8_1" | "q8_K";

const ROUNDING: ReadonlyMap<number, ActivationRounding> = new Map([
  [GGML_TYPE.F32, "none"],
  [GGML_TYPE.F16, "f16"],
  [GGML_TYPE.BF16, "bf16"],
  [GGML_TYPE.Q8_0, "q8_0"],
  [GGML_TYPE.Q4_0, "q8_0"],
  [GGML_TYPE.Q5_0, "q8_0"],
  [GGML_TYPE.Q4_1, "q8_1"],
  [GGML_TYPE.Q5_1, "q8_1"],
  [GGML_TYPE.Q4_K, "q8_K"],
  [GGML_TYPE.Q5_K, "q8_K"],
  [GGML_TYPE.Q6_K, "q8_K"],
]);

/** ggml's vec_dot_type for a weight type, as the rounding it implies for X. */
export function activationRounding(weightType: GgmlType): ActivationRounding {
  const r = ROUNDING.get(weightType);
  if (r === undefined) throw new Error(`no activation rounding for ggml type ${weightType}`);
  return r;
}

/** Values per block of a rounding (rows of X must be whole blocks). */
export const roundingBlock = (r: ActivationRounding): number => (r === "q8_K" ? 256 : r === "q8_0" || r === "q8_1" ? 32 : 1);

const fround = Math.fround;

/** Round half to even, as _mm256_round_ps(_MM_ROUND_NEAREST) and ggml's nearest_int do; an integer,
 *  so never −0. */
function rne(v: number): number {
  const f = Math.floor(v) + 0;
  const rest = v - f;
  return rest < 0.5 ? f : rest > 0.5 ? f + 1 : f % 2 === 0 ? f : f + 1;
}

const one = new Float32Array(1);
const oneHalf = new Uint16Array(1);
/** A float32 rounded to F16 and back (ggml_compute_fp32_to_fp16). */
function f16Round(v: number): number {
  one[0] = v;
  encodeF16(one, oneHalf);
  one[0] = 0;
  new Uint32Array(one.buffer)[0] = halfBitsTable()[oneHalf[0]];
  return one[0];
}

// quantize_row_q8_0 / q8_1 (AVX2): blocks of 32, scale F16(amax/127), multiplier 127/amax.
function roundQ8_0(x: Float32Array, out: Float32Array, n: number): void {
  for (let b = 0; b < n; b += 32) {
    let amax = 0;
    for (let j = b; j < b + 32; j++) amax = Math.max(amax, Math.abs(x[j]));
    const id = amax !== 0 ? fround(127 / amax) : 0;
    const d = f16Round(fround(amax / 127));
    for (let j = b; j < b + 32; j++) out[j] = rne(fround(x[j] * id)) * d;
  }
}

// quantize_row_q8_K_ref: blocks of 256 scaled by −127/max, max the first value of largest |x| (the
// sign only decides whether a zero decodes as +0 or −0; kept so the bits are ggml's).
function roundQ8_K(x: Float32Array, out: Float32Array, n: number): void {
  for (let b = 0; b < n; b += 256) {
    let amax = 0;
    let max = 0;
    for (let j = b; j < b + 256; j++) {
      const ax = Math.abs(x[j]);
      if (ax > amax) {
        amax = ax;
        max = x[j];
      }
    }
    if (amax === 0) {
      out.fill(0, b, b + 256);
      continue;
    }
    const iscale = fround(-127 / max);
    const d = fround(1 / iscale);
    for (let j = b; j < b + 256; j++) out[j] = Math.min(127, rne(fround(x[j] * iscale))) * d;
  }
}

/** out[b] = s − F16(d)·Σq of each 32-value block b of x[0..n) quantized to Q8_1 (see above). */
export function q8_1SumErrors(x: Float32Array, n: number, out: Float32Array): Float32Array {
  for (let b = 0; b < n; b += 32) {
    let amax = 0;
    for (let j = b; j < b + 32; j++) amax = Math.max(amax, Math.abs(x[j]));
    const id = amax !== 0 ? fround(127 / amax) : 0;
    const d = fround(amax / 127);
    let sum = 0;
    for (let j = b; j < b + 32; j++) sum += rne(fround(x[j] * id));
    out[b / 32] = f16Round(fround(d * sum)) - f16Round(d) * sum;
  }
  return out;
}

/**
 * out[0..n) = X[0..n) as ggml rounds it for a `weightType` weight (n a whole number of rows, each a
 * whole number of the rounding's blocks). Returns `out`, or X itself when the type rounds nothing.
 */
export function roundActivations(weightType: GgmlType, x: Float32Array, n: number, out: Float32Array): Float32Array {
  const r = activationRounding(weightType);
  if (r === "none") return x;
  if (n % roundingBlock(r) !== 0) throw new Error(`${n} activations are not whole ${r} blocks`);
  if (r === "f16" || r === "bf16") {
    const halves = (r === "f16" ? encodeF16 : encodeBf16)(x.subarray(0, n));
    const bits = new Uint32Array(out.buffer, out.byteOffset, n);
    if (r === "f16") {
      const table = halfBitsTable();
      for (let i = 0; i < n; i++) bits[i] = table[halves[i]];
    } else for (let i = 0; i < n; i++) bits[i] = halves[i] << 16;
    return out;
  }
  (r === "q8_K" ? roundQ8_K : roundQ8_0)(x, out, n);
  return out;
}
