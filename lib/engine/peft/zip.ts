// ZIP archives (PKWARE APPNOTE 6.3) as far as adapters need them. Written: stored entries (no
// compression: safetensors of float32 barely deflate) with their CRC-32. Read: stored and deflated
// entries (what `zip`, Python's zipfile and Hugging Face's tools write). Refused by name: ZIP64,
// encryption, other compression methods, and archives that would unpack to more than the caller's cap
// (a zip bomb's entries claim small sizes and inflate to gigabytes: each is inflated with its claimed
// size as the hard limit, and the claims summed against the cap first).

import zlib from "node:zlib";
import { AdapterTooLargeError, MalformedAdapterError } from "./adapter-errors";

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const STORED = 0;
const DEFLATED = 8;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_UTF8_NAME = 0x0800;
/** 2.0: deflate and folders (what every reader handles). */
const VERSION = 20;
/** 1980-01-01 00:00 in MS-DOS form: the archive's bytes depend on its contents only. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const U32_MAX = 0xffffffff;
const U16_MAX = 0xffff;

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

export function writeZip(entries: readonly ZipEntry[]): Uint8Array<ArrayBuffer> {
  if (entries.length >= U16_MAX) throw new Error("zip: too many entries (ZIP64 is not written)");
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    if (data.length >= U32_MAX || offset >= U32_MAX) throw new Error("zip: an entry of 4 GiB or more (ZIP64 is not written)");
    const nameBytes = Buffer.from(name, "utf8");
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(VERSION, 4);
    local.writeUInt16LE(FLAG_UTF8_NAME, 6);
    local.writeUInt16LE(STORED, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(CENTRAL_HEADER, 0);
    central.writeUInt16LE(VERSION, 4);
    central.writeUInt16LE(VERSION, 6);
    central.writeUInt16LE(FLAG_UTF8_NAME, 8);
    central.writeUInt16LE(STORED, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    // extra, comment, disk, internal and external attributes: 0
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, ...centrals, end]));
}

export interface ReadZipOptions {
  /** The most bytes all the entries together may unpack to. */
  maxUnpackedBytes: number;
}

/** Every file entry's bytes by name (folders skipped); a malformed or unsupported archive throws
 *  MalformedAdapterError, one past the cap AdapterTooLargeError. */
export function readZip(bytes: Uint8Array, { maxUnpackedBytes }: ReadZipOptions): Map<string, Uint8Array> {
  const fail = (why: string): never => {
    throw new MalformedAdapterError(`zip: ${why}`);
  };
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const endAt = findEndOfCentralDirectory(buf) ?? fail("no end of central directory record (not a zip archive, or truncated)");
  if (endAt >= 20 && buf.readUInt32LE(endAt - 20) === ZIP64_END_LOCATOR) fail("ZIP64 archives are not read");
  const count = buf.readUInt16LE(endAt + 10);
  const centralSize = buf.readUInt32LE(endAt + 12);
  const centralOffset = buf.readUInt32LE(endAt + 16);
  if (count === U16_MAX || centralSize === U32_MAX || centralOffset === U32_MAX) fail("ZIP64 archives are not read");
  if (buf.readUInt16LE(endAt + 4) !== 0 || buf.readUInt16LE(endAt + 6) !== 0 || buf.readUInt16LE(endAt + 8) !== count) fail("multi-disk archives are not read");
  if (centralOffset + centralSize > endAt) fail("the central directory runs past its end record");

  interface Found { name: string; method: number; crc: number; packed: number; unpacked: number; localAt: number }
  const found: Found[] = [];
  let at = centralOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > endAt || buf.readUInt32LE(at) !== CENTRAL_HEADER) fail("a central directory entry is malformed");
    const flags = buf.readUInt16LE(at + 8);
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const packed = buf.readUInt32LE(at + 20);
    const unpacked = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const next = at + 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    if (next > endAt) fail("a central directory entry runs past the directory");
    const name = buf.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    if (flags & FLAG_ENCRYPTED) fail(`${name} is encrypted`);
    if (packed === U32_MAX || unpacked === U32_MAX || buf.readUInt32LE(at + 42) === U32_MAX) fail("ZIP64 archives are not read");
    if (method !== STORED && method !== DEFLATED) fail(`${name} is compressed with method ${method}; Anneal reads stored and deflated entries`);
    if (!name.endsWith("/")) found.push({ name, method, crc, packed, unpacked, localAt: buf.readUInt32LE(at + 42) });
    at = next;
  }
  const total = found.reduce((n, e) => n + e.unpacked, 0);
  if (total > maxUnpackedBytes) throw new AdapterTooLargeError(`the archive unpacks to ${total} bytes, over the limit of ${maxUnpackedBytes}`);

  const out = new Map<string, Uint8Array>();
  for (const e of found) {
    if (out.has(e.name)) fail(`${e.name} appears twice`);
    if (e.localAt + 30 > centralOffset || buf.readUInt32LE(e.localAt) !== LOCAL_HEADER) fail(`${e.name}'s local header is missing`);
    const dataAt = e.localAt + 30 + buf.readUInt16LE(e.localAt + 26) + buf.readUInt16LE(e.localAt + 28);
    if (dataAt + e.packed > centralOffset) fail(`${e.name}'s data runs past the archive`);
    const packed = buf.subarray(dataAt, dataAt + e.packed);
    let data: Uint8Array;
    if (e.method === STORED) {
      if (e.packed !== e.unpacked) fail(`${e.name} is stored with two different sizes`);
      data = packed;
    } else {
      try {
        // maxOutputLength: the entry's claimed size is a hard limit, whatever the stream holds.
        data = zlib.inflateRawSync(packed, { maxOutputLength: Math.max(1, e.unpacked) });
      } catch {
        fail(`${e.name} does not inflate to its claimed ${e.unpacked} bytes`);
      }
    }
    if (data!.length !== e.unpacked) fail(`${e.name} unpacks to ${data!.length} bytes, not its claimed ${e.unpacked}`);
    if (zlib.crc32(data!) !== e.crc) fail(`${e.name} fails its CRC-32 check`);
    out.set(e.name, data!);
  }
  return out;
}

/** The end record's offset: its signature, scanning back over at most a 64 KiB comment. */
function findEndOfCentralDirectory(buf: Buffer): number | undefined {
  for (let at = buf.length - 22; at >= Math.max(0, buf.length - 22 - U16_MAX); at--) {
    if (buf.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY && at + 22 + buf.readUInt16LE(at + 20) === buf.length) return at;
  }
  return undefined;
}
