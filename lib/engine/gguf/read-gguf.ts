// GGUF v3 reader. Parses the header (metadata and tensor infos) through a small read buffer and
// reads each tensor's data only when asked, so a multi-GB model costs only the tensors you load.
// Tensors come back as float32 whatever ggml type they are stored in (weight-types.ts decodes them as
// ggml does), or as their raw bytes, whole or a range of rows, for a reader that keeps them compact.
// Its errors never name the file's path: they can reach a client (a job's error), which must not
// learn the server's paths; callers that log for the operator add the path themselves.

import fs from "node:fs";
import { GGML_TYPE, ggmlRowBytes, ggmlTypeName } from "./ggml-types";
import { GGUF_TYPE_CODE, type GgufArray, type GgufMetadata, type GgufScalar, type GgufScalarType, type GgufValue } from "./values";
import { canDequantize, DEQUANTIZABLE_TYPES, dequantizeRows } from "./weight-types";
import { alignUp, GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC } from "./write-gguf";

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
  /** Reads one tensor as float32 into a new array (the caller owns it), decoding F16, BF16 and the
   *  quantized types weight-types.ts lists exactly as ggml does; other types are refused by name. */
  readTensor(name: string): Float32Array;
  /** The stored bytes of rows [firstRow, firstRow + rowCount) of a tensor of any ggml type (a row is
   *  dims[0] values; all rows by default): weight-types.ts's dequantizeRows decodes them. */
  readTensorBytes(name: string, firstRow?: number, rowCount?: number): Uint8Array;
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

  const tensor = (name: string): GgufTensorInfo => {
    const t = byName.get(name);
    if (!t) throw new Error(`GGUF: no tensor ${name}`);
    return t;
  };
  /** Rows [firstRow, firstRow + rowCount) of t's stored bytes, into `into` when given (it must fit). */
  const readBytes = (t: GgufTensorInfo, firstRow = 0, rowCount?: number, into?: Uint8Array): Uint8Array => {
    let rowBytes: number;
    try {
      rowBytes = ggmlRowBytes(t.ggmlType, t.dims[0] ?? 1);
    } catch (error) {
      throw new Error(`GGUF: tensor ${t.name}: ${(error as Error).message}`);
    }
    const rows = t.dims.slice(1).reduce((a, b) => a * b, 1);
    const count = rowCount ?? rows - firstRow;
    if (!Number.isInteger(firstRow) || !Number.isInteger(count) || firstRow < 0 || count < 0 || firstRow + count > rows) {
      throw new Error(`GGUF: tensor ${t.name} has ${rows} rows, not [${firstRow}, ${firstRow + count})`);
    }
    const bytes = into ?? new Uint8Array(count * rowBytes);
    if (bytes.length !== count * rowBytes) throw new Error(`GGUF: tensor ${t.name}: ${count * rowBytes} bytes do not fit ${bytes.length}`);
    if (readFully(fd, bytes, t.fileOffset + firstRow * rowBytes) !== bytes.length) throw new Error(`GGUF: tensor ${t.name} is truncated`);
    return bytes;
  };

  return {
    version,
    metadata,
    tensors,
    readTensor(name) {
      const t = tensor(name);
      if (!canDequantize(t.ggmlType)) {
        throw new Error(`GGUF: tensor ${name} is ${ggmlTypeName(t.ggmlType)}, which Anneal does not decode (it reads ${DEQUANTIZABLE_TYPES.map(ggmlTypeName).join(", ")})`);
      }
      const out = new Float32Array(t.dims.reduce((a, b) => a * b, 1));
      // F32 needs no decoding: read it straight into the result.
      if (t.ggmlType === GGML_TYPE.F32) readBytes(t, 0, undefined, new Uint8Array(out.buffer));
      else dequantizeRows(t.ggmlType, readBytes(t), out);
      return out;
    },
    readTensorBytes: (name, firstRow, rowCount) => readBytes(tensor(name), firstRow, rowCount),
    close: () => fs.closeSync(fd),
  };
}

/** fs.readSync until `bytes` is full or the file ends (one read stops at 2 GiB). */
function readFully(fd: number, bytes: Uint8Array, position: number): number {
  let done = 0;
  while (done < bytes.length) {
    const n = fs.readSync(fd, bytes, done, Math.min(bytes.length - done, 1 << 30), position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
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
