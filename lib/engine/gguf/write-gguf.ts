// GGUF v3 writer: header, metadata key/values, tensor infos, then 32-byte aligned tensor data (F32
// from float arrays, or another ggml type's bytes as given).
// Layout (ggml's gguf.h): "GGUF" u32 version, u64 n_tensors, u64 n_kv, kvs, tensor infos, padding,
// data. Tensor data is streamed from the caller's arrays, never concatenated in memory.

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

const tensorType = (t: GgufTensorToWrite) => ("bytes" in t ? t.ggmlType : GGML_TYPE_F32);
const tensorBytes = (t: GgufTensorToWrite) => ("bytes" in t ? t.bytes : new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));

/** Writes to `path` via a temporary file and a rename, so a reader never sees half a checkpoint. */
export function writeGguf(path: string, metadata: GgufMetadata, tensors: GgufTensorToWrite[]): void {
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
  const offsets: number[] = [];
  for (const t of tensors) {
    const count = t.dims.reduce((a, b) => a * b, 1);
    if ("data" in t && count !== t.data.length) throw new Error(`GGUF writer: ${t.name} has ${t.data.length} values, dims say ${count}`);
    header.string(t.name);
    header.u32(t.dims.length);
    for (const d of t.dims) header.u64(d);
    header.u32(tensorType(t));
    header.u64(offset);
    offsets.push(offset);
    offset = alignUp(offset + tensorBytes(t).byteLength, alignment);
  }
  header.zeros(alignUp(header.length, alignment) - header.length);

  const tmp = `${path}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, "w");
  try {
    fs.writeSync(fd, header.bytes());
    const padding = new Uint8Array(alignment);
    tensors.forEach((t, i) => {
      const bytes = tensorBytes(t);
      fs.writeSync(fd, bytes);
      const end = offsets[i] + bytes.byteLength;
      const next = i + 1 < offsets.length ? offsets[i + 1] : alignUp(end, alignment);
      if (next > end) fs.writeSync(fd, padding, 0, next - end);
    });
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, path);
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
