// The ggml weight types real GGUF models ship in, decoded into float32 exactly as ggml decodes them:
// ports of ggml-quants.c's reference dequantize_row_{q4_0, q4_1, q5_0, q5_1, q8_0, q4_K, q5_K, q6_K}
// and of ggml's F16/BF16 conversions, so the trainer sees the very weights llama.cpp computes with.
//
// Every type is a run of fixed-size blocks (ggml-types.ts: blockSize values in blockBytes bytes). A
// tensor's row (dims[0] values) is a whole number of blocks and rows are contiguous, so rows [a, b)
// are the bytes [a·rowBytes, b·rowBytes) and decode on their own: `dequantizeRows(type,
// bytes.subarray(a * rowBytes, b * rowBytes), out)` reads a row range of a compact base without a copy.
//
// Bit-exactness: ggml computes each value in float32 with one rounding per operation (the shipped
// x86-64 build has no fused multiply-add). A float32 product of a small integer and a float is exact
// in a double, and a double's +, −, × of two float32s rounded once to float32 is the float32 result
// (53 ≥ 2·24 + 2 bits), so Math.fround after each step, and the Float32Array store for the last one,
// give ggml's bits. (With 11-bit F16 scales and small integer quants most steps before the last are
// exact anyway; the frounds keep the port step for step.)

import { GGML_TYPE, ggmlBlockLayout, ggmlTypeName, type BlockLayout } from "./ggml-types";
import { halfBitsTable, halfValueTable } from "./half-float";

/** Decodes `nBlocks` blocks from bytes[0..] into y[at..]. */
type BlockDecoder = (bytes: Uint8Array, nBlocks: number, y: Float32Array, at: number) => void;

const fround = Math.fround;

let half: Float32Array | undefined;
/** The F16 at bytes[p..p+1] (a block's scale or min) as a float32 value. */
const f16 = (bytes: Uint8Array, p: number): number => (half ??= halfValueTable())[bytes[p] | (bytes[p + 1] << 8)];

const asBits = (y: Float32Array) => new Uint32Array(y.buffer, y.byteOffset, y.length);

const decodeF32: BlockDecoder = (bytes, n, y, at) => {
  // A byte copy: keeps NaN payloads, and works whatever the source's alignment.
  new Uint8Array(y.buffer, y.byteOffset + at * 4, n * 4).set(bytes.subarray(0, n * 4));
};

// ggml_fp16_to_fp32_row
const decodeF16: BlockDecoder = (bytes, n, y, at) => {
  const table = halfBitsTable();
  const out = asBits(y);
  for (let i = 0; i < n; i++) out[at + i] = table[bytes[2 * i] | (bytes[2 * i + 1] << 8)];
};

// ggml_bf16_to_fp32_row: the top half of a float32.
const decodeBf16: BlockDecoder = (bytes, n, y, at) => {
  const out = asBits(y);
  for (let i = 0; i < n; i++) out[at + i] = (bytes[2 * i] << 16) | (bytes[2 * i + 1] << 24);
};

// dequantize_row_q8_0. Block (34 bytes): d (F16), qs[32] int8; y = qs·d.
const decodeQ8_0: BlockDecoder = (b, nBlocks, y, at) => {
  for (let i = 0, p = 0; i < nBlocks; i++, p += 34, at += 32) {
    const d = f16(b, p);
    for (let j = 0; j < 32; j++) y[at + j] = ((b[p + 2 + j] << 24) >> 24) * d;
  }
};

// dequantize_row_q4_0. Block (18 bytes): d, qs[16] nibbles; low nibbles are values 0–15, high 16–31;
// y = (q − 8)·d.
const decodeQ4_0: BlockDecoder = (b, nBlocks, y, at) => {
  for (let i = 0, p = 0; i < nBlocks; i++, p += 18, at += 32) {
    const d = f16(b, p);
    for (let j = 0; j < 16; j++) {
      const q = b[p + 2 + j];
      y[at + j] = ((q & 0xf) - 8) * d;
      y[at + j + 16] = ((q >> 4) - 8) * d;
    }
  }
};

// dequantize_row_q4_1. Block (20 bytes): d, m, qs[16]; y = q·d + m.
const decodeQ4_1: BlockDecoder = (b, nBlocks, y, at) => {
  for (let i = 0, p = 0; i < nBlocks; i++, p += 20, at += 32) {
    const d = f16(b, p);
    const m = f16(b, p + 2);
    for (let j = 0; j < 16; j++) {
      const q = b[p + 4 + j];
      y[at + j] = fround((q & 0xf) * d) + m;
      y[at + j + 16] = fround((q >> 4) * d) + m;
    }
  }
};

/** The 32 fifth bits of a Q5 block (little-endian u32 at p), as an unsigned number. */
const u32 = (b: Uint8Array, p: number): number => (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;

// dequantize_row_q5_0. Block (22 bytes): d, qh (u32: bit j is value j's fifth bit), qs[16];
// y = (q − 16)·d.
const decodeQ5_0: BlockDecoder = (b, nBlocks, y, at) => {
  for (let i = 0, p = 0; i < nBlocks; i++, p += 22, at += 32) {
    const d = f16(b, p);
    const qh = u32(b, p + 2);
    for (let j = 0; j < 16; j++) {
      const q = b[p + 6 + j];
      y[at + j] = (((q & 0xf) | (((qh >>> j) << 4) & 0x10)) - 16) * d;
      y[at + j + 16] = (((q >> 4) | ((qh >>> (j + 12)) & 0x10)) - 16) * d;
    }
  }
};

// dequantize_row_q5_1. Block (24 bytes): d, m, qh, qs[16]; y = q·d + m.
const decodeQ5_1: BlockDecoder = (b, nBlocks, y, at) => {
  for (let i = 0, p = 0; i < nBlocks; i++, p += 24, at += 32) {
    const d = f16(b, p);
    const m = f16(b, p + 2);
    const qh = u32(b, p + 4);
    for (let j = 0; j < 16; j++) {
      const q = b[p + 8 + j];
      y[at + j] = fround(((q & 0xf) | (((qh >>> j) << 4) & 0x10)) * d) + m;
      y[at + j + 16] = fround(((q >> 4) | ((qh >>> (j + 12)) & 0x10)) * d) + m;
    }
  }
};

/**
 * get_scale_min_k4: sub-block j's 6-bit scale and min from a K-quant block's 12 packed bytes at s
 * (sub-blocks 0–3 in the low 6 bits of bytes 0–7; 4–7 split between bytes 8–11 and the top bits of 0–7).
 */
function scaleMinK4(b: Uint8Array, s: number, j: number): [number, number] {
  if (j < 4) return [b[s + j] & 63, b[s + j + 4] & 63];
  return [(b[s + j + 4] & 0xf) | ((b[s + j - 4] >> 6) << 4), (b[s + j + 4] >> 4) | ((b[s + j] >> 6) << 4)];
}

// dequantize_row_q4_K. Super-block (144 bytes) of 8 sub-blocks of 32: d, dmin (F16), scales[12],
// qs[128]; each 32 bytes of qs hold two sub-blocks (low nibbles, then high); y = d·sc·q − dmin·m.
const decodeQ4_K: BlockDecoder = (b, nBlocks, y, at) => {
  for (let i = 0, p = 0; i < nBlocks; i++, p += 144) {
    const d = f16(b, p);
    const min = f16(b, p + 2);
    for (let j = 0, q = p + 16; j < 8; j += 2, q += 32) {
      const [sc1, m1] = scaleMinK4(b, p + 4, j);
      const [sc2, m2] = scaleMinK4(b, p + 4, j + 1);
      const d1 = fround(d * sc1), min1 = fround(min * m1);
      const d2 = fround(d * sc2), min2 = fround(min * m2);
      for (let l = 0; l < 32; l++) y[at++] = fround(d1 * (b[q + l] & 0xf)) - min1;
      for (let l = 0; l < 32; l++) y[at++] = fround(d2 * (b[q + l] >> 4)) - min2;
    }
  }
};

// dequantize_row_q5_K. Super-block (176 bytes): d, dmin, scales[12], qh[32], qs[128]; as Q4_K with a
// fifth bit per value: bit 2k of qh[l] for sub-block 2k, bit 2k+1 for 2k+1.
const decodeQ5_K: BlockDecoder = (b, nBlocks, y, at) => {
  for (let i = 0, p = 0; i < nBlocks; i++, p += 176) {
    const d = f16(b, p);
    const min = f16(b, p + 2);
    const qh = p + 16;
    for (let j = 0, q = p + 48, u1 = 1, u2 = 2; j < 8; j += 2, q += 32, u1 <<= 2, u2 <<= 2) {
      const [sc1, m1] = scaleMinK4(b, p + 4, j);
      const [sc2, m2] = scaleMinK4(b, p + 4, j + 1);
      const d1 = fround(d * sc1), min1 = fround(min * m1);
      const d2 = fround(d * sc2), min2 = fround(min * m2);
      for (let l = 0; l < 32; l++) y[at++] = fround(d1 * ((b[q + l] & 0xf) + (b[qh + l] & u1 ? 16 : 0))) - min1;
      for (let l = 0; l < 32; l++) y[at++] = fround(d2 * ((b[q + l] >> 4) + (b[qh + l] & u2 ? 16 : 0))) - min2;
    }
  }
};

// dequantize_row_q6_K. Super-block (210 bytes) of 16 sub-blocks of 16: ql[128] (low 4 bits), qh[64]
// (high 2 bits), scales[16] int8, d (F16) last; two halves of 128 values; y = d·sc·(q − 32).
const decodeQ6_K: BlockDecoder = (b, nBlocks, y, at) => {
  for (let i = 0, p = 0; i < nBlocks; i++, p += 210) {
    const d = f16(b, p + 208);
    for (let n = 0, ql = p, qh = p + 128, sc = p + 192; n < 2; n++, ql += 64, qh += 32, sc += 8, at += 128) {
      for (let l = 0; l < 32; l++) {
        const s = sc + (l >> 4);
        const h = b[qh + l];
        y[at + l] = fround(d * ((b[s] << 24) >> 24)) * (((b[ql + l] & 0xf) | ((h & 3) << 4)) - 32);
        y[at + l + 32] = fround(d * ((b[s + 2] << 24) >> 24)) * (((b[ql + l + 32] & 0xf) | (((h >> 2) & 3) << 4)) - 32);
        y[at + l + 64] = fround(d * ((b[s + 4] << 24) >> 24)) * (((b[ql + l] >> 4) | (((h >> 4) & 3) << 4)) - 32);
        y[at + l + 96] = fround(d * ((b[s + 6] << 24) >> 24)) * (((b[ql + l + 32] >> 4) | (((h >> 6) & 3) << 4)) - 32);
      }
    }
  }
};

const DECODERS: ReadonlyMap<number, BlockDecoder> = new Map([
  [GGML_TYPE.F32, decodeF32],
  [GGML_TYPE.F16, decodeF16],
  [GGML_TYPE.BF16, decodeBf16],
  [GGML_TYPE.Q8_0, decodeQ8_0],
  [GGML_TYPE.Q4_0, decodeQ4_0],
  [GGML_TYPE.Q4_1, decodeQ4_1],
  [GGML_TYPE.Q5_0, decodeQ5_0],
  [GGML_TYPE.Q5_1, decodeQ5_1],
  [GGML_TYPE.Q4_K, decodeQ4_K],
  [GGML_TYPE.Q5_K, decodeQ5_K],
  [GGML_TYPE.Q6_K, decodeQ6_K],
]);

/** The ggml types Anneal decodes. */
export const DEQUANTIZABLE_TYPES: readonly number[] = [...DECODERS.keys()];

export const canDequantize = (type: number): boolean => DECODERS.has(type);

/** Block layout of a type Anneal decodes; any other type is refused by name. */
export function weightTypeLayout(type: number): BlockLayout {
  const layout = DECODERS.has(type) ? ggmlBlockLayout(type) : undefined;
  if (!layout) throw new Error(`weights of type ${ggmlTypeName(type)} cannot be read (supported: ${DEQUANTIZABLE_TYPES.map(ggmlTypeName).join(", ")})`);
  return layout;
}

/**
 * Decodes whole blocks of `type` (all of `bytes`) into out[offset..], as ggml's to_float does, and
 * returns how many values it wrote. `bytes` may be any subarray (e.g. a row range of a tensor).
 */
export function dequantizeRows(type: number, bytes: Uint8Array, out: Float32Array, offset = 0): number {
  const { blockSize, blockBytes } = weightTypeLayout(type);
  if (bytes.length % blockBytes !== 0) throw new Error(`${bytes.length} bytes are not whole ${ggmlTypeName(type)} blocks of ${blockBytes}`);
  const nBlocks = bytes.length / blockBytes;
  const n = nBlocks * blockSize;
  if (offset < 0 || offset + n > out.length) throw new Error(`${n} values do not fit at ${offset} in an array of ${out.length}`);
  DECODERS.get(type)!(bytes, nBlocks, out, offset);
  return n;
}
