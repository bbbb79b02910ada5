// IEEE half (F16) and bfloat16 (BF16) to and from float32, bit for bit as ggml converts them
// (ggml-impl.h ggml_compute_fp16_to_fp32 / ggml_compute_fp32_to_fp16 / ggml_compute_fp32_to_bf16, used
// by ggml.c ggml_fp16_to_fp32_row, ggml_fp32_to_fp16_row and ggml_fp32_to_bf16_row): round to nearest
// even, subnormals kept, NaN made quiet. Encoders read float32 bits, not values, so a NaN's sign and
// payload reach the result as they do in ggml.

/** Float32 bits of one F16 (h: 16 bits). Exact; a signalling NaN comes back quiet, as ggml's does. */
function halfToFloatBits(h: number): number {
  const sign = (h & 0x8000) << 16;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0x1f) return (sign | 0x7f800000 | (mantissa << 13) | (mantissa ? 0x400000 : 0)) >>> 0;
  if (exponent !== 0) return (sign | ((exponent + 112) << 23) | (mantissa << 13)) >>> 0;
  if (mantissa === 0) return sign >>> 0;
  // Subnormal (mantissa · 2^-24): shift the leading 1 up to the implicit bit.
  let e = 113;
  let m = mantissa;
  while ((m & 0x400) === 0) {
    m <<= 1;
    e--;
  }
  return (sign | (e << 23) | ((m & 0x3ff) << 13)) >>> 0;
}

let halfTable: Uint32Array | undefined;

/** Float32 bits of all 65,536 F16s (256 KiB, built on first use). */
export function halfBitsTable(): Uint32Array {
  if (!halfTable) {
    halfTable = new Uint32Array(65536);
    for (let h = 0; h < 65536; h++) halfTable[h] = halfToFloatBits(h);
  }
  return halfTable;
}

/** The same table as float32 values, for multiplying by a block's F16 scale. */
export const halfValueTable = (): Float32Array => new Float32Array(halfBitsTable().buffer);

/** F16 bits of float32 bits `w` (ggml_compute_fp32_to_fp16). */
function floatBitsToHalf(w: number): number {
  const sign = (w >>> 16) & 0x8000;
  const a = w & 0x7fffffff;
  if (a > 0x7f800000) return sign | 0x7e00; // any NaN: ggml keeps only the sign
  if (a >= 0x477ff000) return sign | 0x7c00; // ≥ 65520 rounds to infinity
  if (a >= 0x38800000) {
    // Normal half: rebias the exponent (127 → 15) and round the mantissa from 23 to 10 bits.
    const rounded = a + 0xfff + ((a >>> 13) & 1);
    return sign | ((rounded >>> 13) - 0x1c000);
  }
  // Below 2^-14: a half subnormal, in units of 2^-24 (rounding up may give the smallest normal).
  const e = a >>> 23;
  if (e < 102) return sign; // < 2^-25
  const m = (a & 0x7fffff) | 0x800000;
  const shift = 126 - e;
  let q = m >>> shift;
  const rest = m & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  if (rest > half || (rest === half && (q & 1) === 1)) q++;
  return sign | q;
}

/** BF16 bits of float32 bits `w` (ggml_compute_fp32_to_bf16): NaN quieted, otherwise round to nearest even. */
function floatBitsToBf16(w: number): number {
  if ((w & 0x7fffffff) > 0x7f800000) return ((w >>> 16) | 64) & 0xffff;
  return ((w + 0x7fff + ((w >>> 16) & 1)) >>> 16) & 0xffff;
}

const floatBits = (values: Float32Array) => new Uint32Array(values.buffer, values.byteOffset, values.length);

/** F16 encoding of `values`, equal to ggml_fp32_to_fp16_row. */
export function encodeF16(values: Float32Array, out = new Uint16Array(values.length)): Uint16Array {
  const bits = floatBits(values);
  for (let i = 0; i < bits.length; i++) out[i] = floatBitsToHalf(bits[i]);
  return out;
}

/** BF16 encoding of `values`, equal to ggml_fp32_to_bf16_row (and its _ref twin). */
export function encodeBf16(values: Float32Array, out = new Uint16Array(values.length)): Uint16Array {
  const bits = floatBits(values);
  for (let i = 0; i < bits.length; i++) out[i] = floatBitsToBf16(bits[i]);
  return out;
}
