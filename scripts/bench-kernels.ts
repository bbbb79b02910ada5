// GFLOP/s of the native packed-weight matmuls (matmulXWt: forward through a frozen weight, X rounded
// as llama.cpp rounds it; matmulDyW: backward to the input) per weight type, against the dense F32
// sgemm, at M = 512 tokens on the projection shapes of SmolLM2-135M and Qwen2.5-0.5B, on 1 thread
// and on every core (ANNEAL_KERNEL_THREADS). Wall-clock, best of 5; the machine may be shared, so the
// load average is printed before and after.
//   npx tsx scripts/bench-kernels.ts            (M=…, SHAPES=576x1536,… to change them)
import os from "node:os";
import { encodeF16 } from "../lib/engine/gguf/half-float";
import { GGML_TYPE } from "../lib/engine/gguf/ggml-types";
import { kernelThreads, loadNativeKernels } from "../lib/engine/kernels/native";
import { packedWeight, packedWeightFromF32, type PackedWeight } from "../lib/engine/kernels/packed-weight";
import { ggmlQuantizeRows } from "../lib/engine/test-support/ggml-reference";
import { loadAverage } from "./lib/load-average";
import { textTable, type TableRow } from "./lib/text-table";

const M = Number(process.env.M ?? 512);
const SHAPES = (process.env.SHAPES ?? "576x1536,1536x576,896x4864,4864x896").split(",").map((s) => s.split("x").map(Number));
const THREADS = [...new Set([1, kernelThreads()])];

function random(n: number): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.random() - 0.5;
  return a;
}

/** GFLOP/s of `run` (flops per call), the best of 5 timed calls after a warm-up. */
function gflops(run: () => void, flops: number): string {
  run();
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    run();
    best = Math.min(best, performance.now() - t);
  }
  return (flops / best / 1e6).toFixed(1);
}

console.log(`load average (1/5/15 min) before: ${loadAverage().join(" / ")} on ${os.availableParallelism()} CPUs`);
const rows: TableRow[] = [];
for (const [cols, outs] of SHAPES) {
  const w32 = random(outs * cols);
  const weights: [string, PackedWeight][] = [
    ["F32", packedWeightFromF32(w32, outs, cols)],
    ["F16", packedWeight(GGML_TYPE.F16, outs, cols, new Uint8Array(encodeF16(w32).buffer))],
    ["Q8_0", packedWeight(GGML_TYPE.Q8_0, outs, cols, ggmlQuantizeRows(GGML_TYPE.Q8_0, w32, cols))],
    ["Q4_K", packedWeight(GGML_TYPE.Q4_K, outs, cols, ggmlQuantizeRows(GGML_TYPE.Q4_K, w32, cols))],
    ["Q6_K", packedWeight(GGML_TYPE.Q6_K, outs, cols, ggmlQuantizeRows(GGML_TYPE.Q6_K, w32, cols))],
  ];
  const [X, dY, C, dX] = [random(M * cols), random(M * outs), new Float32Array(M * outs), new Float32Array(M * cols)];
  const flops = 2 * M * outs * cols;
  for (const threads of THREADS) {
    const k = loadNativeKernels({ threads });
    const row: TableRow = { shape: `${cols}→${outs}`, threads: String(threads), "sgemm X·Wᵀ": gflops(() => k.matmulABt(C, X, w32, M, cols, outs, false), flops) };
    for (const [name, w] of weights) {
      row[`XWt ${name}`] = gflops(() => k.matmulXWt(C, X, w, M, false), flops);
      row[`DyW ${name}`] = gflops(() => k.matmulDyW(dX, dY, w, M, false), flops);
    }
    rows.push(row);
  }
}
console.log(textTable(`GFLOP/s at M=${M} (native ${loadNativeKernels().variant})`, rows));
console.log(`load average (1/5/15 min) after: ${loadAverage().join(" / ")}`);
