// safetensors (Hugging Face's tensor file): an 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__"?: {string: string}}, then the
// tensors' bytes back to back, row-major, little-endian. Anneal writes F32 (what PEFT saves an
// adapter trained in float32 as) and reads F32, F16 and BF16 (what adapters trained elsewhere ship in).

import { GGML_TYPE } from "../gguf/ggml-types";
import { dequantizeRows } from "../gguf/weight-types";
import { MalformedAdapterError } from "./adapter-errors";

export interface SafetensorsTensor {
  shape: number[];
  data: Float32Array;
}

const BYTES_PER_VALUE = { F32: 4, F16: 2, BF16: 2 } as const;
type ReadableDtype = keyof typeof BYTES_PER_VALUE;
const DECODE_TYPE: Record<ReadableDtype, number> = { F32: GGML_TYPE.F32, F16: GGML_TYPE.F16, BF16: GGML_TYPE.BF16 };

/** A header longer than this is not an adapter's (ours are a few kB; 100 MB is safetensors' own cap). */
const MAX_HEADER_BYTES = 16 * 1024 * 1024;

export function writeSafetensors(tensors: Record<string, SafetensorsTensor>, metadata: Record<string, string> = {}): Uint8Array {
  const header: Record<string, unknown> = Object.keys(metadata).length ? { __metadata__: metadata } : {};
  let offset = 0;
  for (const [name, { shape, data }] of Object.entries(tensors)) {
    if (shape.reduce((a, b) => a * b, 1) !== data.length) throw new Error(`safetensors: ${name} has ${data.length} values, not [${shape}]`);
    header[name] = { dtype: "F32", shape, data_offsets: [offset, offset + data.byteLength] };
    offset += data.byteLength;
  }
  // The header is padded with spaces to a multiple of 8, so the data starts aligned (as safetensors does).
  let json = JSON.stringify(header);
  json += " ".repeat((8 - ((8 + Buffer.byteLength(json)) % 8)) % 8);
  const headerBytes = Buffer.from(json, "utf8");
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(headerBytes.length), true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const { data } of Object.values(tensors)) {
    out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), at);
    at += data.byteLength;
  }
  return out;
}

export interface SafetensorsContents {
  tensors: Record<string, SafetensorsTensor & { dtype: ReadableDtype }>;
  metadata: Record<string, string>;
}

/** Every tensor as float32 (F16 and BF16 decoded as ggml decodes them); any other dtype, a bad
 *  header, or offsets that overlap or leave the file are MalformedAdapterError. */
export function readSafetensors(bytes: Uint8Array): SafetensorsContents {
  const fail = (why: string): never => {
    throw new MalformedAdapterError(`adapter_model.safetensors: ${why}`);
  };
  if (bytes.length < 8) fail("shorter than its header");
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(0, true);
  if (headerLength > BigInt(Math.min(MAX_HEADER_BYTES, bytes.length - 8))) fail("its header length runs past the file");
  const dataStart = 8 + Number(headerLength);
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(bytes.subarray(8, dataStart)).toString("utf8"));
  } catch {
    fail("its header is not JSON");
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) fail("its header is not a JSON object");
  const dataLength = bytes.length - dataStart;
  const { __metadata__: metadata = {}, ...entries } = header as Record<string, unknown>;
  const tensors: SafetensorsContents["tensors"] = {};
  const spans: [number, number, string][] = [];
  for (const [name, entry] of Object.entries(entries)) {
    const { dtype, shape, data_offsets: offsets } = (entry ?? {}) as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof dtype !== "string" || !(dtype in BYTES_PER_VALUE)) fail(`${name} is ${String(dtype)}; Anneal reads ${Object.keys(BYTES_PER_VALUE).join(", ")}`);
    const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
    if (!Array.isArray(shape) || !shape.every(isCount)) fail(`${name} has no valid shape`);
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isCount)) fail(`${name} has no valid data_offsets`);
    const [begin, end] = offsets as [number, number];
    const count = (shape as number[]).reduce((a, b) => a * b, 1);
    const width = BYTES_PER_VALUE[dtype as ReadableDtype];
    if (end > dataLength || end - begin !== count * width) fail(`${name}'s data_offsets do not hold [${String(shape)}] ${dtype} values within the file`);
    spans.push([begin, end, name]);
    const data = new Float32Array(count);
    dequantizeRows(DECODE_TYPE[dtype as ReadableDtype], bytes.subarray(dataStart + begin, dataStart + end), data);
    tensors[name] = { dtype: dtype as ReadableDtype, shape: shape as number[], data };
  }
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i][0] < spans[i - 1][1]) fail(`${spans[i][2]} overlaps ${spans[i - 1][2]}`);
  const isStringRecord = typeof metadata === "object" && metadata !== null && Object.values(metadata).every((v) => typeof v === "string");
  if (!isStringRecord) fail("__metadata__ is not a map of strings");
  return { tensors, metadata: metadata as Record<string, string> };
}
