// GGUF v3 reader. Parses the header (metadata and tensor infos) through a small read buffer and
// reads each tensor's data only when asked, so a multi-GB model costs only the tensors you load.
// Its errors never name the file's path: they can reach a client (a job's error), which must not
// learn the server's paths; callers that log for the operator add the path themselves.

import fs from "node:fs";
import { ggmlTypeName } from "./ggml-types";
import { GGUF_TYPE_CODE, type GgufArray, type GgufMetadata, type GgufScalar, type GgufScalarType, type GgufValue } from "./values";
import { alignUp, GGML_TYPE_F32, GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC } from "./write-gguf";

export interface GgufTensorInfo {
  name: string;
  /** GGUF dims, dims[0] contiguous. */
  dims: number[];
  /** ggml_type code (0 = F32). */
  ggmlType: number;
  /** Absolute byte offset of the tensor's data in the file. */
  fileOffset: number;
}

export interface GgufFile {
  version: number;
  metadata: GgufMetadata;
  tensors: GgufTensorInfo[];
  /** Reads one F32 tensor into a new array (the caller owns it). */
  readTensor(name: string): Float32Array;
  close(): void;
}

const TYPE_BY_CODE = Object.fromEntries(Object.entries(GGUF_TYPE_CODE).map(([k, v]) => [v, k])) as Record<
  number,
  GgufScalarType | "array"
>;

export function openGguf(path: string): GgufFile {
  let fd: number;
  try {
    fd = fs.openSync(path, "r");
  } catch (error) {
    throw new Error(`the GGUF file cannot be opened (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  try {
    return parse(fd);
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

function parse(fd: number): GgufFile {
  const r = new FileReader(fd);
  if (r.u32() !== GGUF_MAGIC) throw new Error("not a GGUF file");
  const version = r.u32();
  if (version < 2 || version > 3) throw new Error(`unsupported GGUF version ${version}`);
  const nTensors = r.u64();
  const nKv = r.u64();

  const metadata: GgufMetadata = {};
  for (let i = 0; i < nKv; i++) {
    const key = r.string();
    metadata[key] = readValue(r, r.u32());
  }

  const infos: Omit<GgufTensorInfo, "fileOffset">[] = [];
  const relativeOffsets: number[] = [];
  for (let i = 0; i < nTensors; i++) {
    const name = r.string();
    const nDims = r.u32();
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) dims.push(r.u64());
    const ggmlType = r.u32();
    relativeOffsets.push(r.u64());
    infos.push({ name, dims, ggmlType });
  }
  const alignment = metadata["general.alignment"]?.value ?? GGUF_DEFAULT_ALIGNMENT;
  const dataStart = alignUp(r.position, Number(alignment));
  const tensors = infos.map((t, i) => ({ ...t, fileOffset: dataStart + relativeOffsets[i] }));
  const byName = new Map(tensors.map((t) => [t.name, t]));

  return {
    version,
    metadata,
    tensors,
    readTensor(name) {
      const t = byName.get(name);
      if (!t) throw new Error(`GGUF: no tensor ${name}`);
      if (t.ggmlType !== GGML_TYPE_F32) throw new Error(`GGUF: tensor ${name} is ${ggmlTypeName(t.ggmlType)}; only F32 is read`);
      const out = new Float32Array(t.dims.reduce((a, b) => a * b, 1));
      const bytes = new Uint8Array(out.buffer);
      if (fs.readSync(fd, bytes, 0, bytes.length, t.fileOffset) !== bytes.length) throw new Error(`GGUF: tensor ${name} is truncated`);
      return out;
    },
    close: () => fs.closeSync(fd),
  };
}

function readValue(r: FileReader, code: number): GgufValue {
  const type = TYPE_BY_CODE[code];
  if (type === undefined) throw new Error(`GGUF: unknown value type ${code}`);
  if (type !== "array") return { type, value: readScalar(r, type) } as GgufScalar;
  const itemType = TYPE_BY_CODE[r.u32()];
  if (itemType === undefined || itemType === "array") throw new Error("GGUF: nested or unknown array item type");
  const n = r.u64();
  const value: (number | bigint | boolean | string)[] = new Array(n);
  for (let i = 0; i < n; i++) value[i] = readScalar(r, itemType);
  return { type: "array", itemType, value } as GgufArray;
}

function readScalar(r: FileReader, type: GgufScalarType): number | bigint | boolean | string {
  switch (type) {
    case "u8": return r.fixed(1, (b) => b.readUInt8(0));
    case "i8": return r.fixed(1, (b) => b.readInt8(0));
    case "u16": return r.fixed(2, (b) => b.readUInt16LE(0));
    case "i16": return r.fixed(2, (b) => b.readInt16LE(0));
    case "u32": return r.u32();
    case "i32": return r.fixed(4, (b) => b.readInt32LE(0));
    case "f32": return r.fixed(4, (b) => b.readFloatLE(0));
    case "f64": return r.fixed(8, (b) => b.readDoubleLE(0));
    case "u64": return r.fixed(8, (b) => b.readBigUInt64LE(0));
    case "i64": return r.fixed(8, (b) => b.readBigInt64LE(0));
    case "bool": return r.fixed(1, (b) => b.readUInt8(0) !== 0);
    case "str": return r.string();
  }
}

/** Sequential little-endian reads from a file descriptor through a window that refills on demand. */
class FileReader {
  private buf = Buffer.alloc(1 << 16);
  private start = 0; // file position of buf[0]
  private end = 0; // file position just past the valid bytes in buf
  position = 0;

  constructor(private readonly fd: number) {}

  fixed<T>(size: number, read: (view: Buffer) => T): T {
    this.ensure(size);
    const at = this.position - this.start;
    this.position += size;
    return read(this.buf.subarray(at, at + size));
  }
  u32(): number { return this.fixed(4, (b) => b.readUInt32LE(0)); }
  u64(): number {
    const v = this.fixed(8, (b) => b.readBigUInt64LE(0));
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error("GGUF: size field too large");
    return Number(v);
  }
  string(): string {
    const n = this.u64();
    return this.fixed(n, (b) => b.toString("utf8"));
  }

  private ensure(size: number): void {
    if (this.position + size <= this.end) return;
    if (size > this.buf.length) this.buf = Buffer.alloc(size * 2);
    const n = fs.readSync(this.fd, this.buf, 0, this.buf.length, this.position);
    this.start = this.position;
    this.end = this.position + n;
    if (this.position + size > this.end) throw new Error("GGUF: unexpected end of file");
  }
}
