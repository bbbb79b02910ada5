// How far the trainer's log-probs are from the ones serving reported for the same sampled tokens:
// the mean |log π_served − log π_trainer| over a micro-batch's trainable tokens that carry a served
// log-prob, under the current weights and without dropout. On a quantized base llama.cpp computes
// with its own kernels; the trainer reads the same packed weights and rounds activations as ggml
// does (frozen-base.ts), and this number says how well that worked for a job's data. RL jobs report
// it with their first gradient step (`served_abs_log_ratio`, docs/rl-loss.md).
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import type { RlMicroBatch } from "../trajectories/micro-batches";

/** null when no trainable token has a served log-prob. */
export function servedAbsLogRatio(model: LlamaModel, batch: RlMicroBatch): number | null {
  const { logprobs } = model.forward(batch);
  let sum = 0, n = 0;
  for (let t = 0; t < batch.mask.length; t++) {
    if (!batch.mask[t] || Number.isNaN(batch.oldLogprobs[t])) continue;
    sum += Math.abs(batch.oldLogprobs[t] - logprobs[t]);
    n++;
  }
  return n > 0 ? sum / n : null;
}
