// Anneal's weight decoding against ggml itself (the libggml-base node-llama-cpp ships, through
// test-support/ggml-reference): every supported type, quantized by ggml, must decode to the same bits
// in both; the F16/BF16 encoders must equal ggml's.

import { describe, expect, it } from "vitest";
import { Prng } from "../prng";
import { bitDifference, ggmlDequantizeRows, ggmlEncodeHalf, ggmlQuantizeRows, ggmlTypeTraits } from "../test-support/ggml-reference";
import { GGML_TYPE, ggmlBlockLayout, ggmlRowBytes, ggmlTypeName } from "./ggml-types";
import { encodeBf16, encodeF16 } from "./half-float";
import { DEQUANTIZABLE_TYPES, dequantizeRows } from "./weight-types";

/** Rows of `rowLength` values that stress a quantizer: zeros, signs, magnitudes from 1e-6 to 1e3, outliers. */
function testRows(rowLength: number, seed: number): Float32Array {
  const rng = new Prng(seed);
  const kinds: ((i: number) => number)[] = [
    () => 0,
    () => rng.normal(),
    () => rng.normal() * 1e-3,
    () => rng.normal() * 300,
    () => -Math.abs(rng.normal()) * 0.05, // all negative
    () => (rng.next() < 0.05 ? rng.normal() * 4 : 0), // sparse
    () => rng.normal() ** 3, // heavy tails
    () => 0.5, // constant
    () => rng.normal() * 1e-6, // F16 scales become subnormal
    (i) => (i % 17 === 0 ? 1 : i % 19 === 0 ? -1 : rng.next() * 2 - 1), // exact ±1 among uniform values
    () => Math.abs(rng.normal()) + 2, // all positive, off zero
    (i) => (i % 64 === 5 ? 1000 : rng.normal() * 0.01), // one outlier per 64
  ];
  const out = new Float32Array(kinds.length * rowLength);
  kinds.forEach((value, r) => {
    for (let i = 0; i < rowLength; i++) out[r * rowLength + i] = value(i);
  });
  return out;
}

const isKQuant = (type: number) => ggmlBlockLayout(type)!.blockSize === 256;

describe("ggml block layouts", () => {
  it("equal libggml-base's type traits for every type it defines", () => {
    const traits = ggmlTypeTraits().filter((t) => t.blockSize > 0);
    expect(traits.length).toBeGreaterThan(30);
    for (const t of traits) {
      expect({ code: t.code, name: ggmlTypeName(t.code), ...ggmlBlockLayout(t.code) }).toEqual({
        code: t.code,
        name: t.name.toUpperCase(),
        blockSize: t.blockSize,
        blockBytes: t.blockBytes,
      });
    }
  });
});

describe("dequantizeRows equals ggml's to_float", () => {
  let compared = 0;
  for (const type of DEQUANTIZABLE_TYPES) {
    it(`${ggmlTypeName(type)}: rows quantized by ggml decode to ggml's bits`, () => {
      const rowLength = isKQuant(type) ? 512 : 96;
      const rows = testRows(rowLength, type);
      const bytes = ggmlQuantizeRows(type, rows, rowLength);
      expect(bytes.length).toBe((rows.length / rowLength) * ggmlRowBytes(type, rowLength));
      const reference = ggmlDequantizeRows(type, bytes);
      const ours = new Float32Array(rows.length);
      expect(dequantizeRows(type, bytes, ours)).toBe(rows.length);
      expect(bitDifference(ours, reference)).toBe("");
      compared += rows.length;

      // A row range from the middle, decoded in place into a larger array.
      const rowBytes = ggmlRowBytes(type, rowLength);
      const part = new Float32Array(5 * rowLength);
      dequantizeRows(type, bytes.subarray(3 * rowBytes, 7 * rowBytes), part, rowLength);
      expect(bitDifference(part.subarray(rowLength), reference.subarray(3 * rowLength, 7 * rowLength))).toBe("");
      expect(part.subarray(0, rowLength).every((v) => v === 0)).toBe(true);
    });
  }

  it("F16 and BF16: every one of the 65,536 bit patterns, NaNs included", () => {
    const all = Uint16Array.from({ length: 65536 }, (_, i) => i);
    const bytes = new Uint8Array(all.buffer);
    for (const type of [GGML_TYPE.F16, GGML_TYPE.BF16]) {
      const ours = new Float32Array(65536);
      dequantizeRows(type, bytes, ours);
      expect(bitDifference(ours, ggmlDequantizeRows(type, bytes))).toBe("");
      compared += 65536;
    }
  });

  it("refuses types it does not decode, and partial blocks, by name", () => {
    expect(() => dequantizeRows(GGML_TYPE.IQ2_XXS, new Uint8Array(66), new Float32Array(256))).toThrow(/IQ2_XXS/);
    expect(() => dequantizeRows(GGML_TYPE.Q4_K, new Uint8Array(143), new Float32Array(256))).toThrow(/Q4_K/);
    expect(() => dequantizeRows(GGML_TYPE.Q8_0, new Uint8Array(34), new Float32Array(31))).toThrow(/do not fit/);
    console.log(`[weight-types] ${compared} decoded values compared with ggml, all bit-equal`);
  });
});

/** Float32 bits that probe every rounding case: all sign/exponent/top-mantissa patterns with low halves
 *  just below, at and above the F16 and BF16 halfway points, and random normal values of every scale. */
function encoderProbes(): Float32Array {
  const lows = [0, 0x0fff, 0x1000, 0x1001, 0x2000, 0x2fff, 0x3000, 0x3001, 0x7fff, 0x8000, 0x8001, 0xffff];
  const rng = new Prng(7);
  const bits = new Uint32Array(65536 * (lows.length + 1) + 4096);
  let n = 0;
  for (let hi = 0; hi < 65536; hi++) {
    for (const lo of lows) bits[n++] = (hi << 16) | lo;
    bits[n++] = (hi << 16) | (rng.uint32() & 0xffff);
  }
  const values = new Float32Array(bits.buffer);
  for (let i = 0; i < 4096; i++) values[n++] = rng.normal() * 10 ** rng.int(-12, 6);
  return values;
}

describe("F16 and BF16 encoders equal ggml's", () => {
  const probes = encoderProbes();
  const edges = new Float32Array(
    new Uint32Array([
      0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xffbfffff, 0x7fffffff, // ±0, ±inf, NaNs
      0x00000001, 0x007fffff, 0x80000001, // float32 subnormals
      0x33800000, 0x33000000, 0x33000001, 0x32ffffff, 0x387fe000, 0x38800000, // 2^-24, 2^-25 (±ulp), F16 subnormal top, 2^-14
      0x477fe000, 0x477fefff, 0x477ff000, 0x47800000, 0x7f7fffff, // 65504, just under 65520, 65520, 65536, FLT_MAX
    ]).buffer,
  );

  it("ggml_fp32_to_fp16_row", () => {
    for (const values of [probes, edges]) expect(bitDifference(encodeF16(values), ggmlEncodeHalf("fp16", values))).toBe("");
    console.log(`[half-float] ${probes.length + edges.length} float32 values encoded as F16, and again as BF16, bit-equal to ggml`);
  });

  it("ggml_fp32_to_bf16_row and ggml_fp32_to_bf16_row_ref", () => {
    for (const values of [probes, edges]) {
      const ours = encodeBf16(values);
      expect(bitDifference(ours, ggmlEncodeHalf("bf16", values))).toBe("");
      expect(bitDifference(ours, ggmlEncodeHalf("bf16-ref", values))).toBe("");
    }
  });
});
