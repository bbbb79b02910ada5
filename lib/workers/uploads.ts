// A lease's chunked uploads (docs/workers.md "Uploads"): adapters and states can pass the 64 MiB body
// limit, so a worker declares the file (purpose, bytes, sha256), then PUTs its chunks with a
// Content-Range in any order, again after a failure, and asks how much of it is held. Each upload
// lives under its job's state directory (training-state/<job>/uploads/<id>/: meta.json and one file
// per chunk, named by its range), so it goes when the job's states go; it belongs to its lease, and
// a stale token can neither add to it nor use it.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { conflict, invalid, notFound } from "@/lib/contract/errors";
import { jobStateDir } from "@/lib/training/jobs/saved-states";
import type { OwnedLease } from "./owned-lease";
import { UPLOAD_CHUNK_BYTES } from "./schemas";

export type UploadPurpose = "checkpoint" | "state";

interface UploadMeta {
  owner: string;
  purpose: UploadPurpose;
  bytes: number;
  sha256: string;
}

const uploadDir = (jobId: string, uploadId: string) => path.join(jobStateDir(jobId), "uploads", uploadId);
const CHUNK_NAME = /^(\d+)-(\d+)\.part$/;

export function createUpload(lease: OwnedLease, input: { purpose: UploadPurpose; bytes: number; sha256: string }) {
  const id = randomUUID();
  const dir = uploadDir(lease.jobId, id);
  fs.mkdirSync(dir, { recursive: true });
  const meta: UploadMeta = { owner: lease.owner, ...input };
  fs.writeFileSync(path.join(dir, "meta.json"), JSON.stringify(meta));
  return { upload_id: id, chunk_bytes: UPLOAD_CHUNK_BYTES };
}

function readMeta(lease: OwnedLease, uploadId: string): UploadMeta {
  const file = path.join(uploadDir(lease.jobId, uploadId), "meta.json");
  const meta = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as UploadMeta) : undefined;
  // Another attempt's upload is as unknown to this lease as one that never existed.
  if (!meta || meta.owner !== lease.owner) throw notFound(`This lease has no upload '${uploadId}'.`);
  return meta;
}

/** The chunks held, as [start, end] byte ranges (inclusive), by start. */
function chunksOf(dir: string): [number, number][] {
  return fs.readdirSync(dir)
    .map((name) => name.match(CHUNK_NAME))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m): [number, number] => [Number(m[1]), Number(m[2])])
    .sort((a, b) => a[0] - b[0]);
}

/** The contiguous prefix the chunks cover, in bytes. */
function receivedPrefix(chunks: [number, number][]): number {
  let held = 0;
  for (const [start, end] of chunks) {
    if (start > held) break;
    held = Math.max(held, end + 1);
  }
  return held;
}

export function uploadReceived(lease: OwnedLease, uploadId: string) {
  readMeta(lease, uploadId);
  return { received: receivedPrefix(chunksOf(uploadDir(lease.jobId, uploadId))) };
}

/** `Content-Range: bytes a-b/N` → [a, b]; the chunk must be the range's bytes of this upload. */
function chunkRange(header: string | null, meta: UploadMeta, length: number): [number, number] {
  const m = header?.match(/^bytes (\d+)-(\d+)\/(\d+)$/);
  if (!m) throw invalid(["header", "content-range"], "Send 'Content-Range: bytes <first>-<last>/<total>' with each chunk.");
  const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (total !== meta.bytes) throw invalid(["header", "content-range"], `The upload was declared as ${meta.bytes} bytes, not ${total}.`);
  if (end < start || end >= total) throw invalid(["header", "content-range"], `The range ${start}-${end} is not within the upload's ${total} bytes.`);
  if (end - start + 1 !== length) throw invalid(["header", "content-range"], `The range ${start}-${end} names ${end - start + 1} bytes; the body has ${length}.`);
  return [start, end];
}

export function putChunk(lease: OwnedLease, uploadId: string, contentRange: string | null, bytes: Uint8Array) {
  const meta = readMeta(lease, uploadId);
  const [start, end] = chunkRange(contentRange, meta, bytes.length);
  const dir = uploadDir(lease.jobId, uploadId);
  // Written aside and renamed: a chunk is either whole or absent, whatever interrupts it.
  const file = path.join(dir, `${start}-${end}.part`);
  const partial = `${file}.${randomUUID()}.tmp`;
  fs.writeFileSync(partial, bytes);
  fs.renameSync(partial, file);
  return { received: receivedPrefix(chunksOf(dir)) };
}

/** The whole upload, checked against its declared size and SHA-256, as one file beside its chunks. */
export function assembleUpload(lease: OwnedLease, uploadId: string, purpose: UploadPurpose): string {
  const meta = readMeta(lease, uploadId);
  if (meta.purpose !== purpose) throw conflict(`Upload '${uploadId}' is a ${meta.purpose}, not a ${purpose}.`);
  const dir = uploadDir(lease.jobId, uploadId);
  const chunks = chunksOf(dir);
  const held = receivedPrefix(chunks);
  if (held < meta.bytes) throw conflict(`Upload '${uploadId}' holds ${held} of its ${meta.bytes} bytes: send the rest first.`);
  const whole = path.join(dir, "whole");
  const fd = fs.openSync(whole, "w");
  const hash = createHash("sha256");
  try {
    let written = 0;
    for (const [start, end] of chunks) {
      if (end < written) continue; // wholly covered by earlier chunks
      const data = fs.readFileSync(path.join(dir, `${start}-${end}.part`)).subarray(written - start);
      fs.writeSync(fd, data, 0, data.length, written);
      hash.update(data);
      written = end + 1;
    }
  } finally {
    fs.closeSync(fd);
  }
  const digest = hash.digest("hex");
  if (digest !== meta.sha256) {
    fs.rmSync(whole, { force: true });
    throw conflict(`Upload '${uploadId}' does not match its declared SHA-256 (${meta.sha256}; the bytes received hash to ${digest}): upload it again.`);
  }
  return whole;
}

/** Claims an upload for the one call that uses it: false when another call (of any web process: the
 *  claim is a file in the shared data directory) holds it. */
export function claimUpload(lease: OwnedLease, uploadId: string): boolean {
  readMeta(lease, uploadId);
  try {
    fs.closeSync(fs.openSync(path.join(uploadDir(lease.jobId, uploadId), "claimed"), "wx"));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/** Lets a later call use the upload (the claiming call failed). */
export function releaseUpload(lease: OwnedLease, uploadId: string): void {
  fs.rmSync(path.join(uploadDir(lease.jobId, uploadId), "claimed"), { force: true });
}

/** Deletes an upload (its file was used). */
export function removeUpload(lease: OwnedLease, uploadId: string): void {
  fs.rmSync(uploadDir(lease.jobId, uploadId), { recursive: true, force: true });
}
