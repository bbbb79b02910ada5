// A running job's resumable state, written by its training thread every so often (state-saver.ts)
// so that a retried attempt continues from it instead of from step 0: the weights, AdamW's moments
// and step count, how many of the job's gradient steps it holds (the data position: the job's
// batches are a fixed function of its input, in order, with no shuffling or sampling, so there is
// no RNG state; the learning-rate schedule is indexed by step), and the metrics of those steps (the
// checkpoint's train/* means cover every step). The file names what it was trained from and how
// many steps the job has, so a state that does not fit is refused rather than resumed.
// Format: "ANTS", u32 header length, the header as JSON (padded to 4 bytes), then the weights, m
// and v as float32 each, and the weights to keep when the header says there are some. Written to a temporary file, synced, then renamed: a crash mid-write
// leaves the previous state whole.
import fs from "node:fs";
import path from "node:path";
import type { AdamW } from "@/lib/engine/model/adamw";
import type { GradientStepMetrics } from "@/lib/training/gradient-step";

const MAGIC = "ANTS";

export interface TrainingStateHeader {
  /** Gradient steps of the job done in this state. */
  step: number;
  /** Gradient steps the job takes in all (training_started.num_sequences). */
  numSequences: number;
  /** The weights the job started from (the file's name and size). */
  start: string;
  parameters: number;
  optimizerStep: number;
  /** The gradient_step metrics of steps 1..step. */
  metrics: GradientStepMetrics[];
  /** Whether weights to keep (an SFT job's best epoch so far) follow v. */
  kept?: boolean;
}

export interface TrainingState {
  header: TrainingStateHeader;
  values: Float32Array;
  m: Float32Array;
  v: Float32Array;
  kept: Float32Array | null;
}

/** Identifies the weights a job starts from (a checkpoint file is never rewritten under its name). */
export function startIdentity(gguf: string): string {
  return `${path.basename(gguf)}:${fs.statSync(gguf).size}`;
}

/** Writes the state atomically; returns its size in bytes. */
export function writeTrainingState(
  file: string, header: Omit<TrainingStateHeader, "parameters" | "optimizerStep" | "kept">, values: Float32Array, optimizer: AdamW, kept: Float32Array | null = null,
): number {
  const json = Buffer.from(JSON.stringify({ ...header, parameters: values.length, optimizerStep: optimizer.step, kept: kept !== null }));
  const headerBytes = Math.ceil(json.length / 4) * 4;
  const floatsAt = 8 + headerBytes;
  const blocks = kept ? 4 : 3;
  const out = Buffer.alloc(floatsAt + 4 * blocks * values.length, 0x20); // JSON padded with spaces
  out.write(MAGIC, 0, "latin1");
  out.writeUInt32LE(headerBytes, 4);
  json.copy(out, 8);
  const floats = new Float32Array(out.buffer, out.byteOffset + floatsAt, blocks * values.length);
  floats.set(values, 0);
  floats.set(optimizer.m, values.length);
  floats.set(optimizer.v, 2 * values.length);
  if (kept) floats.set(kept, 3 * values.length);

  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temporary, "w");
  try {
    fs.writeSync(fd, out);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
  return out.length;
}

export function readTrainingState(file: string): TrainingState {
  const data = fs.readFileSync(file);
  if (data.toString("latin1", 0, 4) !== MAGIC) throw new Error(`${file} is not a saved training state`);
  const headerBytes = data.readUInt32LE(4);
  const header = JSON.parse(data.toString("utf8", 8, 8 + headerBytes)) as TrainingStateHeader;
  const n = header.parameters;
  const floatsAt = 8 + headerBytes;
  const blocks = header.kept ? 4 : 3;
  if (data.length !== floatsAt + 4 * blocks * n) throw new Error(`${file} is truncated`);
  const floats = new Float32Array(data.buffer.slice(data.byteOffset + floatsAt, data.byteOffset + data.length));
  const block = (i: number) => floats.subarray(i * n, (i + 1) * n);
  return { header, values: block(0), m: block(1), v: block(2), kept: header.kept ? block(3) : null };
}
