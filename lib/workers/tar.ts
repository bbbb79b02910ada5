// Tar archives (POSIX ustar) as far as job bundles need them (docs/workers.md "Job bundles"): a few
// regular files with short names. Written: ustar headers, each file padded to 512 bytes, two zero
// blocks at the end. Read: regular files; pax extended headers (what Python's tarfile writes when it
// must) are skipped; anything else, or a file that would pass the caller's cap, is refused.

const BLOCK = 512;

export class MalformedTarError extends Error {}

function header(name: string, size: number): Uint8Array {
  const block = new Uint8Array(BLOCK);
  const put = (text: string, offset: number, length: number) => block.set(Buffer.from(text, "utf8").subarray(0, length), offset);
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, "0");
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: the name '${name}' is longer than 100 bytes`);
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 7);
  put(octal(0, 8), 108, 7);
  put(octal(0, 8), 116, 7);
  put(octal(size, 12), 124, 11);
  put(octal(Math.floor(Date.now() / 1000), 12), 136, 11);
  put("        ", 148, 8); // the checksum counts its own field as spaces
  put("0", 156, 1);
  put("ustar\u000000", 257, 8);
  const sum = block.reduce((a, b) => a + b, 0);
  put(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148, 8);
  return block;
}

const padding = (size: number) => new Uint8Array((BLOCK - (size % BLOCK)) % BLOCK);

export function writeTar(files: readonly { name: string; data: Uint8Array }[]): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  for (const { name, data } of files) parts.push(header(name, data.length), data, padding(data.length));
  parts.push(new Uint8Array(2 * BLOCK));
  return new Uint8Array(Buffer.concat(parts));
}

function field(block: Uint8Array, offset: number, length: number): string {
  const bytes = block.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return Buffer.from(end < 0 ? bytes : bytes.subarray(0, end)).toString("utf8");
}

/** The archive's regular files by name; `maxBytes` caps each file. */
export function readTar(archive: Uint8Array, maxBytes: number): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  for (let at = 0; at + BLOCK <= archive.length;) {
    const block = archive.subarray(at, at + BLOCK);
    if (block.every((b) => b === 0)) break;
    const size = parseInt(field(block, 124, 12).trim() || "0", 8);
    if (!Number.isFinite(size) || size < 0) throw new MalformedTarError("a header's size is not a number");
    if (size > maxBytes) throw new MalformedTarError(`an entry of ${size} bytes is over the limit of ${maxBytes}`);
    const type = String.fromCharCode(block[156] || 0x30);
    const start = at + BLOCK;
    if (start + size > archive.length) throw new MalformedTarError("the archive ends inside an entry");
    const prefix = field(block, 345, 155);
    const name = (prefix ? `${prefix}/` : "") + field(block, 0, 100);
    if (type === "0") files.set(name.replace(/^\.\//, ""), archive.subarray(start, start + size));
    else if (type !== "x" && type !== "g" && type !== "5") throw new MalformedTarError(`entry '${name}' is not a regular file (type ${type})`);
    at = start + size + padding(size).length;
  }
  return files;
}
