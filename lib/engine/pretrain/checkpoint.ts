// A resumable training checkpoint in one file: a JSON header (the caller's run state: step, data
// position, settings) and the flat weights and AdamW moments. Written to a temporary file and
// renamed, so a crash mid-write leaves the previous checkpoint intact.
//   layout: "ANCK" | u32 header bytes | header JSON | pad to 4 | f32 values | f32 m | f32 v

import fs from "node:fs";
import type { AdamW } from "../model/adamw";
import type { ParameterSet } from "../model/parameters";

const MAGIC = "ANCK";

export function saveCheckpoint(path: string, header: object, params: ParameterSet, optimizer: AdamW): void {
  const json = Buffer.from(JSON.stringify({ ...header, adamStep: optimizer.step }));
  const start = Math.ceil((8 + json.length) / 4) * 4;
  const n = params.count;
  const file = Buffer.alloc(start + 3 * n * 4);
  file.write(MAGIC, 0, "latin1");
  file.writeUInt32LE(json.length, 4);
  json.copy(file, 8);
  const floats = new Float32Array(file.buffer, file.byteOffset + start, 3 * n);
  floats.set(params.values, 0);
  floats.set(optimizer.m, n);
  floats.set(optimizer.v, 2 * n);
  fs.writeFileSync(`${path}.tmp`, file);
  fs.renameSync(`${path}.tmp`, path);
}

/** Restores weights and optimizer state in place and returns the header saved with them. */
export function loadCheckpoint<Header>(path: string, params: ParameterSet, optimizer: AdamW): Header {
  const file = fs.readFileSync(path);
  if (file.toString("latin1", 0, 4) !== MAGIC) throw new Error(`${path}: not an Anneal training checkpoint`);
  const jsonLength = file.readUInt32LE(4);
  const header = JSON.parse(file.toString("utf8", 8, 8 + jsonLength)) as Header & { adamStep: number };
  const start = Math.ceil((8 + jsonLength) / 4) * 4;
  const n = params.count;
  if (file.length !== start + 3 * n * 4) throw new Error(`${path}: holds ${(file.length - start) / 12} parameters, the model has ${n}`);
  const floats = new Float32Array(file.buffer.slice(file.byteOffset + start, file.byteOffset + file.length));
  params.values.set(floats.subarray(0, n));
  optimizer.m.set(floats.subarray(n, 2 * n));
  optimizer.v.set(floats.subarray(2 * n, 3 * n));
  optimizer.step = header.adamStep;
  return header;
}
