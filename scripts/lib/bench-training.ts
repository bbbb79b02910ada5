// Training throughput of the embedded engine on one kernel path: SFT-shaped steps (forward,
// cross-entropy, backward, gradient clipping, AdamW) over random tokens, single-threaded as the
// engine runs. Step 0 warms up the JIT and allocates the buffers and is not timed.
import type { Kernels } from "../../lib/engine/kernels";
import { AdamW } from "../../lib/engine/model/adamw";
import { clipGradNorm } from "../../lib/engine/model/clip-grad-norm";
import type { LlamaConfig } from "../../lib/engine/model/config";
import { tokenCrossEntropy } from "../../lib/engine/model/cross-entropy";
import { trainingFlops } from "../../lib/engine/model/flops";
import { LlamaModel } from "../../lib/engine/model/llama-model";
import { randomTokens } from "./bench-tokens";

export interface TrainingShape {
  batchSize: number;
  seqLen: number;
  /** Timed steps (after the warm-up step). */
  steps: number;
}

export interface TrainingResult extends TrainingShape {
  kernels: string;
  secondsPerStep: number;
  forwardMs: number;
  backwardMs: number;
  optimizerMs: number;
  tokensPerSecond: number;
  /** Useful training FLOPs per second (see model/flops.ts). */
  gflops: number;
}

export function benchTraining(config: LlamaConfig, kernels: Kernels, shape: TrainingShape): TrainingResult {
  const { batchSize, seqLen, steps } = shape;
  const model = new LlamaModel(config, { seed: 1, kernels });
  const opt = new AdamW(model.params);
  const M = batchSize * seqLen;
  const ids = Int32Array.from(randomTokens(M + 1, config.vocabSize, 2));
  const batch = { tokens: ids.subarray(0, M), targets: ids.subarray(1), batchSize, seqLen };
  const mask = new Float32Array(M).fill(1);
  const dLogprobs = new Float32Array(M);
  const time = { forward: 0, backward: 0, optimizer: 0 };

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
  const secondsPerStep = (time.forward + time.backward + time.optimizer) / 1000 / steps;
  return {
    ...shape,
    kernels: `${kernels.name} (${kernels.variant})`,
    secondsPerStep,
    forwardMs: time.forward / steps,
    backwardMs: time.backward / steps,
    optimizerMs: time.optimizer / steps,
    tokensPerSecond: M / secondsPerStep,
    gflops: trainingFlops(config, batchSize, seqLen) / secondsPerStep / 1e9,
  };
}
