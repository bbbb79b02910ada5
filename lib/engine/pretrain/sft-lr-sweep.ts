// Measures a model's SFT learning rate: from the same weights, fine-tune on the tagged-answer format
// (new to the model) for a fixed number of steps at each candidate rate, and compare held-out loss on
// the assistant's tokens. The best rate is the model's declared SFT default.

import { AdamW } from "../model/adamw";
import { LlamaModel } from "../model/llama-model";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { batchLoss, trainStep } from "../train/train-step";
import { chatBatch } from "./corpus-batches";
import { taggedConversations } from "./tagged-answers";

export interface SweepPoint {
  lr: number;
  heldoutLoss: number;
}

export interface SweepOptions {
  rates: number[];
  steps: number;
  /** Conversations per step. */
  batchSize: number;
  seed: number;
}

/** Held-out loss before fine-tuning, and after `steps` steps at each rate. */
export function sweepSftLearningRate(base: LlamaModel, tokenizer: Tokenizer, o: SweepOptions): { before: number; points: SweepPoint[] } {
  const train = taggedConversations(o.seed, "train", o.steps * o.batchSize);
  const heldout = chatBatch(tokenizer, taggedConversations(o.seed, "heldout", 64));
  const before = batchLoss(base, heldout);
  const points = o.rates.map((lr) => {
    const model = new LlamaModel(base.config, { weights: base.params.weights() });
    const optimizer = new AdamW(model.params);
    for (let s = 0; s < o.steps; s++) {
      trainStep(model, optimizer, chatBatch(tokenizer, train.slice(s * o.batchSize, (s + 1) * o.batchSize)), lr);
    }
    return { lr, heldoutLoss: batchLoss(model, heldout) };
  });
  return { before, points };
}
