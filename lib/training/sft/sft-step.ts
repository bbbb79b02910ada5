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
import { MAX_GRAD_NORM, type GradientStepMetrics } from "../gradient-step";
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
  const { loss, gradNorm, updated } = trainStep(o.model, o.optimizer, batch, o.learningRate, o.maxGradNorm ?? MAX_GRAD_NORM, dropoutSeedFor(o.seed, o.step));
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

/** One gradient step's examples (indices into the job's training examples) and learning rate. */
export interface SftBatch {
  examples: number[];
  learningRate: number;
}

/** The batches of an SFT job's steps: epoch e's step j is examples [j·b, (j+1)·b) of epoch e's
 *  order (the data's own order in the first epoch, a seeded shuffle in later ones: a fixed function
 *  of the step, so a resumed job takes the same batches) at learningRates[k]. */
export function sftBatches(numExamples: number, plan: { batchSize: number; learningRates: readonly number[]; stepsPerEpoch?: number }): SftBatch[] {
  const perEpoch = plan.stepsPerEpoch ?? plan.learningRates.length;
  let order: { epoch: number; indices: number[] } = { epoch: -1, indices: [] };
  return plan.learningRates.map((learningRate, k) => {
    const [epoch, j] = [Math.floor(k / perEpoch), k % perEpoch];
    if (order.epoch !== epoch) order = { epoch, indices: epoch === 0 ? [...Array(numExamples).keys()] : shuffledIndices(numExamples, epoch) };
    return { examples: order.indices.slice(j * plan.batchSize, (j + 1) * plan.batchSize), learningRate };
  });
}

/** Every step of an SFT job in order, or those after a resume point: step k+1 trains batches[k]'s
 *  examples, each its rows (tokenize-sft-example.ts). */
export function* sftSteps(
  model: LlamaModel, optimizer: AdamW, padId: number, examples: readonly (readonly EncodedChat[])[], batches: readonly SftBatch[],
  resume?: ResumePoint,
  seed = 0,
): Generator<GradientStepMetrics> {
  resume?.restore();
  for (let k = resume?.step ?? 0; k < batches.length; k++) {
    const batch = batches[k].examples.map((i) => examples[i]);
    yield sftStep({ model, optimizer, padId, conversations: batch.flat(), numExamples: batch.length, learningRate: batches[k].learningRate, step: k + 1, seed });
  }
}
