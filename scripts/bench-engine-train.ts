// Training throughput of the embedded engine on a tiny-chat-sized model (~3.7M parameters):
// tokens/s and achieved GFLOP/s per kernel path.
//   npx tsx scripts/bench-engine-train.ts [--kernels native|ts|both] [--steps N] [--batch B]
// Single-threaded, as the engine runs. The TypeScript path is benchmarked with a smaller batch by
// default (it is ~30× slower); tokens/s is comparable across batch sizes.
import { parseArgs } from "node:util";
import { selectKernels } from "../lib/engine/kernels";
import { Prng } from "../lib/engine/prng";
import { AdamW } from "../lib/engine/model/adamw";
import { clipGradNorm } from "../lib/engine/model/clip-grad-norm";
import type { LlamaConfig } from "../lib/engine/model/config";
import { tokenCrossEntropy } from "../lib/engine/model/cross-entropy";
import { trainingFlops } from "../lib/engine/model/flops";
import { LlamaModel } from "../lib/engine/model/llama-model";

const config: LlamaConfig = {
  vocabSize: 1024, dim: 256, nLayers: 4, nHeads: 4, nKvHeads: 4, ffnDim: 704, contextLength: 256, ropeBase: 10000, normEps: 1e-5,
};
const SEQ_LEN = 256;

const { values } = parseArgs({
  options: { kernels: { type: "string", default: "both" }, steps: { type: "string", default: "5" }, batch: { type: "string" } },
});
const paths = values.kernels === "both" ? ["native", "ts"] : [values.kernels!];

function bench(kernelChoice: string, batchSize: number, steps: number): void {
  const kernels = selectKernels(kernelChoice);
  const model = new LlamaModel(config, { seed: 1, kernels });
  const opt = new AdamW(model.params);
  const M = batchSize * SEQ_LEN;
  const prng = new Prng(2);
  const ids = Int32Array.from({ length: M + 1 }, () => prng.int(0, config.vocabSize - 1));
  const batch = { tokens: ids.subarray(0, M), targets: ids.subarray(1), batchSize, seqLen: SEQ_LEN };
  const mask = new Float32Array(M).fill(1);
  const dLogprobs = new Float32Array(M);
  const time = { forward: 0, backward: 0, optimizer: 0 };

  // Step 0 warms up the JIT and allocates the buffers; it is not timed.
  for (let step = 0; step <= steps; step++) {
    const t0 = performance.now();
    tokenCrossEntropy(model.forward(batch).logprobs, mask, dLogprobs);
    const t1 = performance.now();
    model.params.zeroGrads();
    model.backward(dLogprobs);
    const t2 = performance.now();
    clipGradNorm(model.params.grads, 1);
    opt.update(1e-3);
    const t3 = performance.now();
    if (step > 0) {
      time.forward += t1 - t0;
      time.backward += t2 - t1;
      time.optimizer += t3 - t2;
    }
  }
  const seconds = (time.forward + time.backward + time.optimizer) / 1000 / steps;
  const gflops = trainingFlops(config, batchSize, SEQ_LEN) / seconds / 1e9;
  const ms = (t: number) => `${(t / steps).toFixed(0)} ms`;
  console.log(
    `${kernels.name} (${kernels.variant}): batch ${batchSize}×${SEQ_LEN}, ${seconds.toFixed(3)} s/step ` +
      `(forward ${ms(time.forward)}, backward ${ms(time.backward)}, optimizer ${ms(time.optimizer)}) → ` +
      `${Math.round(M / seconds).toLocaleString("en")} tokens/s, ${gflops.toFixed(1)} GFLOP/s`,
  );
}

const params = new LlamaModel(config, { kernels: selectKernels("ts") }).params.count;
console.log(`config: ${JSON.stringify(config)}\nparameters: ${params.toLocaleString("en")}; seq ${SEQ_LEN}`);
for (const path of paths) {
  const steps = path === "ts" ? Math.min(Number(values.steps), 2) : Number(values.steps);
  bench(path, Number(values.batch ?? (path === "ts" ? 2 : 8)), steps);
}
