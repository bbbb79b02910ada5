// A checkpoint's AdamW moments, saved beside its GGUF so that the next job continues the same
// optimisation (one RL job is often one gradient step: a fresh Adam would take sign(g)·lr steps).
// Format: "ANOS", u32 step, u32 n, then m and v as n float32 each.
import fs from "node:fs";
import type { AdamW } from "@/lib/engine/model/adamw";

const MAGIC = "ANOS";

export function saveOptimizerState(path: string, optimizer: AdamW): void {
  const n = optimizer.m.length;
  const file = Buffer.alloc(12 + 8 * n);
  file.write(MAGIC, 0, "latin1");
  file.writeUInt32LE(optimizer.step, 4);
  file.writeUInt32LE(n, 8);
  new Float32Array(file.buffer, file.byteOffset + 12, 2 * n).set(optimizer.m, 0);
  new Float32Array(file.buffer, file.byteOffset + 12, 2 * n).set(optimizer.v, n);
  fs.writeFileSync(path, file);
}

/** Loads saved moments into optimizer; false (a fresh optimizer) when the file is missing or was
 *  written for a different parameter count. */
export function loadOptimizerState(path: string, optimizer: AdamW): boolean {
  if (!fs.existsSync(path)) return false;
  const file = fs.readFileSync(path);
  const n = optimizer.m.length;
  if (file.toString("latin1", 0, 4) !== MAGIC || file.readUInt32LE(8) !== n || file.length !== 12 + 8 * n) return false;
  const floats = new Float32Array(file.buffer.slice(file.byteOffset + 12, file.byteOffset + file.length));
  optimizer.m.set(floats.subarray(0, n));
  optimizer.v.set(floats.subarray(n));
  optimizer.step = file.readUInt32LE(4);
  return true;
}
