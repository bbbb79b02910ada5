// GGUF v3 writer: header, metadata key/values, tensor infos, then aligned tensor data (F32 from float
// arrays, or another ggml type's bytes as given).
// Layout (ggml's gguf.h): "GGUF" u32 version, u64 n_tensors, u64 n_kv, kvs, tensor infos, padding,
// data. The header needs only each tensor's type and size, so the file's size is known before any
// tensor's bytes are made: a tensor's bytes come in pieces when they are written (ggufStream), so a
// file larger than memory should hold is written, or streamed to a client, one piece at a time.

import fs from "node:fs";
import os from "node:os";
import { GGUF_TYPE_CODE, type GgufMetadata, type GgufScalarType, type GgufValue } from "./values";

export const GGUF_MAGIC = 0x46554747; // "GGUF" little-endian
export const GGUF_VERSION = 3;
export const GGUF_DEFAULT_ALIGNMENT = 32;
export const GGML_TYPE_F32 = 0;

interface TensorHead {
  name: string;
  /** GGUF dims: dims[0] is the contiguous one, so a row-major [rows, cols] matrix is [cols, rows]. */
  dims: number[];
}

/** F32 values, or the encoded bytes of another ggml type (the caller encodes them). */
export type GgufTensorToWrite = TensorHead & ({ data: Float32Array } | { ggmlType: number; bytes: Uint8Array });

/** A tensor whose bytes are made as they are written, in pieces that add up to byteLength. */
export interface GgufTensorInPieces extends TensorHead {
  ggmlType: number;
  byteLength: number;
  pieces(): Iterable<Uint8Array>;
}

export interface GgufStream {
  /** The whole file's size, known before any tensor's bytes are made. */
  byteLength: number;
  /** The file's bytes in order (header, then each tensor's pieces and padding); one pass. */
  chunks(): Generator<Uint8Array>;
}

const inOnePiece = (t: GgufTensorToWrite): GgufTensorInPieces => {
  if ("bytes" in t) return { name: t.name, dims: t.dims, ggmlType: t.ggmlType, byteLength: t.bytes.byteLength, pieces: () => [t.bytes] };
  const count = t.dims.reduce((a, b) => a * b, 1);
  if (count !== t.data.length) throw new Error(`GGUF writer: ${t.name} has ${t.data.length} values, dims say ${count}`);
  const bytes = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
  return { name: t.name, dims: t.dims, ggmlType: GGML_TYPE_F32, byteLength: bytes.byteLength, pieces: () => [bytes] };
};

/** Writes to `path` via a temporary file and a rename, so a reader never sees half a checkpoint. */
export function writeGguf(path: string, metadata: GgufMetadata, tensors: GgufTensorToWrite[]): void {
  writeGgufStream(path, ggufStream(metadata, tensors.map(inOnePiece)));
}

/** Writes a stream's chunks to `path` via a temporary file and a rename. */
export function writeGgufStream(path: string, stream: GgufStream): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, "w");
  try {
    for (const chunk of stream.chunks()) fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, path);
}

/** The file of `metadata` and `tensors`: its header is laid out now, each tensor's pieces made as
 *  chunks() reaches them. */
export function ggufStream(metadata: GgufMetadata, tensors: GgufTensorInPieces[]): GgufStream {
  if (os.endianness() !== "LE") throw new Error("GGUF writer: big-endian hosts are not supported");
  const alignment = metadata["general.alignment"]?.value ?? GGUF_DEFAULT_ALIGNMENT;
  if (typeof alignment !== "number") throw new Error("GGUF writer: general.alignment must be u32");

  const header = new ByteWriter();
  header.u32(GGUF_MAGIC);
  header.u32(GGUF_VERSION);
  header.u64(tensors.length);
  header.u64(Object.keys(metadata).length);
  for (const [key, value] of Object.entries(metadata)) {
    header.string(key);
    writeValue(header, value);
  }
  let offset = 0;
  for (const t of tensors) {
    header.string(t.name);
    header.u32(t.dims.length);
    for (const d of t.dims) header.u64(d);
    header.u32(t.ggmlType);
    header.u64(offset);
    offset = alignUp(offset + t.byteLength, alignment);
  }
  header.zeros(alignUp(header.length, alignment) - header.length);
  const headerBytes = header.bytes();

  return {
    byteLength: headerBytes.length + offset,
    *chunks() {
      yield headerBytes;
      const padding = new Uint8Array(alignment);
      for (const t of tensors) {
        let written = 0;
        for (const piece of t.pieces()) {
          written += piece.byteLength;
          if (written > t.byteLength) break;
          yield piece;
        }
        if (written !== t.byteLength) throw new Error(`GGUF writer: ${t.name} gave ${written} bytes, ${t.byteLength} announced`);
        const padded = alignUp(t.byteLength, alignment) - t.byteLength;
        if (padded > 0) yield padding.subarray(0, padded);
      }
    },
  };
}

export const alignUp = (n: number, alignment: number): number => Math.ceil(n / alignment) * alignment;

function writeValue(w: ByteWriter, v: GgufValue): void {
  w.u32(GGUF_TYPE_CODE[v.type]);
  if (v.type !== "array") return writeScalar(w, v.type, v.value);
  w.u32(GGUF_TYPE_CODE[v.itemType]);
  w.u64(v.value.length);
  for (const item of v.value) writeScalar(w, v.itemType, item);
}

function writeScalar(w: ByteWriter, type: GgufScalarType, value: number | bigint | boolean | string): void {
  switch (type) {
    case "u8": return w.fixed(1, (b) => b.writeUInt8(value as number));
    case "i8": return w.fixed(1, (b) => b.writeInt8(value as number));
    case "u16": return w.fixed(2, (b) => b.writeUInt16LE(value as number));
    case "i16": return w.fixed(2, (b) => b.writeInt16LE(value as number));
    case "u32": return w.u32(value as number);
    case "i32": return w.fixed(4, (b) => b.writeInt32LE(value as number));
    case "f32": return w.fixed(4, (b) => b.writeFloatLE(value as number));
    case "f64": return w.fixed(8, (b) => b.writeDoubleLE(value as number));
    case "u64": return w.fixed(8, (b) => b.writeBigUInt64LE(value as bigint));
    case "i64": return w.fixed(8, (b) => b.writeBigInt64LE(value as bigint));
    case "bool": return w.fixed(1, (b) => b.writeUInt8(value ? 1 : 0));
    case "str": return w.string(value as string);
  }
}

/** An append-only little-endian buffer that doubles when full. */
class ByteWriter {
  private buf = Buffer.alloc(1 << 16);
  length = 0;

  fixed(size: number, write: (view: Buffer) => void): void {
    this.reserve(size);
    write(this.buf.subarray(this.length, this.length + size));
    this.length += size;
  }
  u32(x: number): void { this.fixed(4, (b) => b.writeUInt32LE(x)); }
  u64(x: number): void { this.fixed(8, (b) => b.writeBigUInt64LE(BigInt(x))); }
  string(s: string): void {
    const bytes = Buffer.from(s, "utf8");
    this.u64(bytes.length);
    this.fixed(bytes.length, (b) => bytes.copy(b));
  }
  zeros(n: number): void { this.fixed(n, (b) => b.fill(0)); }
  bytes(): Buffer { return this.buf.subarray(0, this.length); }

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const grown = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(grown, 0, 0, this.length);
    this.buf = grown;
  }
}
