// One supervised step on a batch with per-token loss weights: forward, weighted cross-entropy,
// backward, global-norm clipping, AdamW. A step whose gradient is not finite is skipped (no update).
// It trains whatever model.params holds: every weight, or a LoRA model's adapters.

import type { AdamW } from "../model/adamw";
import { clipGradNorm } from "../model/clip-grad-norm";
import { tokenCrossEntropy } from "../model/cross-entropy";
import type { LlamaModel, TokenBatch } from "../model/llama-model";

export interface WeightedBatch extends TokenBatch {
  weights: Float32Array;
}

export interface StepResult {
  loss: number;
  gradNorm: number;
  /** False when the gradient was not finite and the weights were left alone. */
  updated: boolean;
}

/** dropoutSeed: this step's LoRA dropout masks (see ForwardOptions; e.g. dropoutSeedFor(jobSeed,
 *  step)); without it, no dropout. */
export function trainStep(
  model: LlamaModel, optimizer: AdamW, batch: WeightedBatch, lr: number, maxGradNorm = 1, dropoutSeed?: number,
): StepResult {
  const dLogprobs = new Float32Array(batch.batchSize * batch.seqLen);
  const loss = tokenCrossEntropy(model.forward(batch, { dropoutSeed }).logprobs, batch.weights, dLogprobs);
  model.params.zeroGrads();
  model.backward(dLogprobs);
  const gradNorm = clipGradNorm(model.params.grads, maxGradNorm);
  const updated = Number.isFinite(gradNorm);
  if (updated) optimizer.update(lr);
  return { loss, gradNorm, updated };
}

/** The weighted cross-entropy of a batch under the current weights (no update). */
export function batchLoss(model: LlamaModel, batch: WeightedBatch): number {
  const scratch = new Float32Array(batch.batchSize * batch.seqLen);
  return tokenCrossEntropy(model.forward(batch).logprobs, batch.weights, scratch);
}
