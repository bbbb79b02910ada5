// One SFT gradient step: the batch's conversations one per row, mean cross-entropy over their
// assistant tokens, backward, clipping and AdamW at the batch's learning rate (the engine's
// trainStep). Returns the gradient_step event's data (numbers only).
import type { AdamW } from "@/lib/engine/model/adamw";
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import { dropoutSeedFor } from "@/lib/engine/model/lora";
import { conversationRows } from "@/lib/engine/train/packed-batch";
import { trainStep } from "@/lib/engine/train/train-step";
import type { EncodedChat } from "@/lib/engine/tokenizer/chatml";
import type { ResumePoint } from "../resume-point";
import type { GradientStepMetrics } from "../gradient-step";
import { shuffledIndices } from "./validation-split";

export interface SftStepOptions {
  model: LlamaModel;
  optimizer: AdamW;
  /** Fills the rows after their last token (TrainingVocabulary.padId). */
  padId: number;
  /** The rows of the batch's examples (an example is usually one row). */
  conversations: readonly EncodedChat[];
  numExamples: number;
  learningRate: number;
  /** 1-based index of this step within the job. */
  step: number;
  /** The job's seed: with the step, it draws a LoRA model's dropout masks (a resumed step draws the same). */
  seed: number;
  maxGradNorm?: number;
}

export function sftStep(o: SftStepOptions): GradientStepMetrics {
  const batch = conversationRows(o.conversations, o.padId, "assistant");
  const { loss, gradNorm, updated } = trainStep(o.model, o.optimizer, batch, o.learningRate, o.maxGradNorm ?? 1, dropoutSeedFor(o.seed, o.step));
  if (!updated) throw new Error(`SFT step ${o.step}: the gradient is not finite; the weights were left unchanged`);
  return {
    step: o.step,
    loss,
    grad_norm: gradNorm,
    learning_rate: o.learningRate,
    num_trajectories: o.numExamples,
    num_trainable_tokens: batch.weights.reduce((a, b) => a + b, 0),
  };
}

/** Every step of an SFT job in order, or those after a resume point: epoch e's step j is examples
 *  [j·b, (j+1)·b) of epoch e's order (the data's own order in the first epoch, a seeded shuffle
 *  in later ones: a fixed function of the step, so a resumed job takes the same batches) at
 *  learningRates[k], each example its rows (tokenize-sft-example.ts). */
export function* sftSteps(
  model: LlamaModel, optimizer: AdamW, padId: number, examples: readonly (readonly EncodedChat[])[],
  plan: { batchSize: number; learningRates: readonly number[]; stepsPerEpoch?: number },
  resume?: ResumePoint,
  seed = 0,
): Generator<GradientStepMetrics> {
  resume?.restore();
  const perEpoch = plan.stepsPerEpoch ?? plan.learningRates.length;
  let order: { epoch: number; indices: number[] } = { epoch: -1, indices: [] };
  for (let k = resume?.step ?? 0; k < plan.learningRates.length; k++) {
    const [epoch, j] = [Math.floor(k / perEpoch), k % perEpoch];
    if (order.epoch !== epoch) order = { epoch, indices: epoch === 0 ? [...examples.keys()] : shuffledIndices(examples.length, epoch) };
    const batch = order.indices.slice(j * plan.batchSize, (j + 1) * plan.batchSize).map((i) => examples[i]);
    yield sftStep({ model, optimizer, padId, conversations: batch.flat(), numExamples: batch.length, learningRate: plan.learningRates[k], step: k + 1, seed });
  }
}
