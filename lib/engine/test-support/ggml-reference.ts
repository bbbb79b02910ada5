// Test fixture: ggml itself as the reference for Anneal's weight decoding. ggml-reference.c dlopen()s
// the libggml-base and libllama that node-llama-cpp ships and runs their quantization, dequantization,
// half-float conversion and llama_model_quantize on data piped through it. This module compiles it
// with the system C compiler once per version of its source (cached under the OS temp directory) and
// calls it. Without a compiler or the libraries it throws, saying which is missing: the tests that
// need ggml fail rather than pass without comparing anything.

import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

const SOURCE = path.join(import.meta.dirname, "ggml-reference.c");
const CFLAGS = ["-O1", "-std=gnu11", "-Wall", "-Werror"];

/** llama.h `enum llama_ftype`: the file types llama_model_quantize writes. */
export const LLAMA_FTYPE = {
  ALL_F32: 0, MOSTLY_F16: 1, MOSTLY_Q4_0: 2, MOSTLY_Q8_0: 7, MOSTLY_Q5_0: 8, MOSTLY_Q5_1: 9,
  MOSTLY_Q4_K_S: 14, MOSTLY_Q4_K_M: 15, MOSTLY_Q5_K_S: 16, MOSTLY_Q5_K_M: 17, MOSTLY_Q6_K: 18, MOSTLY_BF16: 32,
} as const;

/** The folder of node-llama-cpp's prebuilt libraries for this platform (libggml-base.so, libllama…). */
function binsDir(): string {
  const pkg = `@node-llama-cpp/${process.platform}-${process.arch}`;
  let main: string;
  try {
    main = createRequire(import.meta.url).resolve(pkg);
  } catch {
    throw new Error(`ggml reference: ${pkg} is not installed, so there is no libggml-base to compare with`);
  }
  const dir = path.join(path.dirname(main), "..", "bins", `${process.platform}-${process.arch}`);
  if (!fs.existsSync(path.join(dir, "libggml-base.so"))) throw new Error(`ggml reference: no libggml-base.so in ${dir}`);
  return dir;
}

let built: { program: string; bins: string } | undefined;

/** The compiled harness, built on first use (atomically, so parallel test workers can race). */
function harness(): { program: string; bins: string } {
  if (built) return built;
  const bins = binsDir();
  const source = fs.readFileSync(SOURCE);
  const cc = process.env.CC || "gcc";
  const key = createHash("sha256").update(source).update(CFLAGS.join(" ")).update(cc).digest("hex").slice(0, 16);
  const dir = path.join(os.tmpdir(), "anneal-ggml-reference");
  const program = path.join(dir, `ggml-reference-${key}`);
  if (!fs.existsSync(program)) {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${program}.${process.pid}.tmp`;
    const r = spawnSync(cc, [...CFLAGS, SOURCE, "-o", tmp, "-ldl"], { encoding: "utf8" });
    if (r.error) throw new Error(`ggml reference: cannot run the C compiler ${cc} (${(r.error as NodeJS.ErrnoException).code}); the ggml comparison tests need it`);
    if (r.status !== 0) throw new Error(`ggml reference: compiling ${SOURCE} failed:\n${r.stderr}`);
    fs.renameSync(tmp, program);
  }
  built = { program, bins };
  return built;
}

function run(args: string[], input?: Uint8Array): Buffer {
  const { program, bins } = harness();
  const r = spawnSync(program, [bins, ...args], { input, maxBuffer: 1 << 30 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`ggml reference ${args.join(" ")} failed (${r.status ?? r.signal}):\n${r.stderr.toString().slice(-4000)}`);
  return r.stdout;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** A copy into fresh (aligned) memory, so typed arrays of any width can view it. */
const copy = (b: Buffer) => new Uint8Array(b);

export interface GgmlTypeTraits {
  code: number;
  name: string;
  blockSize: number;
  blockBytes: number;
}

/** ggml_get_type_traits for every type code (removed codes have blockSize 0). */
export function ggmlTypeTraits(): GgmlTypeTraits[] {
  return run(["traits"])
    .toString()
    .trim()
    .split("\n")
    .map((line) => {
      const parts = line.split(" ");
      const [blockSize, blockBytes] = parts.slice(-2).map(Number);
      return { code: Number(parts[0]), name: parts.slice(1, -2).join(" "), blockSize, blockBytes };
    });
}

/** ggml_quantize_chunk of `floats` as rows of `rowLength` values (no importance matrix). */
export const ggmlQuantizeRows = (type: number, floats: Float32Array, rowLength = floats.length): Uint8Array =>
  copy(run(["quantize", String(type), String(rowLength)], bytesOf(floats)));

/** ggml_get_type_traits(type)->to_float over whole blocks. */
export function ggmlDequantizeRows(type: number, bytes: Uint8Array): Float32Array {
  const out = copy(run(["dequantize", String(type)], bytes));
  return new Float32Array(out.buffer, 0, out.length / 4);
}

/** ggml_fp32_to_fp16_row, ggml_fp32_to_bf16_row or ggml_fp32_to_bf16_row_ref. */
export function ggmlEncodeHalf(kind: "fp16" | "bf16" | "bf16-ref", floats: Float32Array): Uint16Array {
  const out = copy(run([kind], bytesOf(floats)));
  return new Uint16Array(out.buffer, 0, out.length / 2);
}

/** The libggml-cpu variant ggml's backend loader picks on this CPU (e.g. "libggml-cpu-haswell.so"). */
export const ggmlCpuVariant = (): string => run(["cpu-variant"]).toString().trim();

/** Rows of `rowLength` values as that variant's mul_mat rounds its activations for a `weightType`
 *  weight (from_float of the type's vec_dot_type), decoded back to f32. */
export function ggmlRoundActivations(weightType: number, floats: Float32Array, rowLength: number): Float32Array {
  const out = copy(run(["round", String(weightType), String(rowLength)], bytesOf(floats)));
  return new Float32Array(out.buffer, 0, out.length / 4);
}

/** C[M,rows] with C[i,j] = vec_dot(W row j, from_float(X row i)), as that variant's mul_mat computes
 *  each element (W: rows·cols values of `weightType`, X: M rows of cols f32). */
export function ggmlMulMat(weightType: number, w: Uint8Array, rows: number, cols: number, x: Float32Array): Float32Array {
  const input = new Uint8Array(w.length + x.byteLength);
  input.set(w);
  input.set(bytesOf(x), w.length);
  const out = copy(run(["mul-mat", String(weightType), String(rows), String(cols)], input));
  return new Float32Array(out.buffer, 0, out.length / 4);
}

/** libllama's llama_model_quantize from one GGUF file to another (like llama-quantize). */
export function quantizeGgufWithLlama(inPath: string, outPath: string, ftype: number, threads = 1): void {
  run(["llama-quantize", inPath, outPath, String(ftype), String(threads)]);
}

/** "" when a and b hold the same bits, else how many elements differ and the first one (as hex). */
export function bitDifference(a: ArrayBufferView, b: ArrayBufferView): string {
  const x = bytesOf(a);
  const y = bytesOf(b);
  if (x.length !== y.length) return `${x.length} bytes vs ${y.length}`;
  if (Buffer.compare(x, y) === 0) return "";
  const width = "BYTES_PER_ELEMENT" in a ? (a as Uint8Array).BYTES_PER_ELEMENT : 1;
  const element = (v: Uint8Array, k: number) => Buffer.from(v.subarray(k * width, (k + 1) * width)).reverse().toString("hex");
  let first = -1;
  let count = 0;
  for (let k = 0; k < x.length / width; k++) {
    if (element(x, k) === element(y, k)) continue;
    if (first < 0) first = k;
    count++;
  }
  return `${count} elements differ, first [${first}]: ${element(x, first)} vs ${element(y, first)}`;
}
