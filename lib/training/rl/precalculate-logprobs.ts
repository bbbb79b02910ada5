// precalculate_logprobs: before the first gradient step, replace every trainable token's π_old by
// log π under the current weights, so ρ measures drift within the job rather than the
// sampler/trainer mismatch.
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import type { RlMicroBatch } from "../trajectories/micro-batches";

export function precalculateLogprobs(model: LlamaModel, batches: readonly RlMicroBatch[]): void {
  for (const batch of batches) {
    const { logprobs } = model.forward(batch);
    for (let t = 0; t < batch.mask.length; t++) if (batch.mask[t]) batch.oldLogprobs[t] = logprobs[t];
  }
}
