// `config` of an SFT job (docs/contract.md "Training jobs"): batch_size (int or "auto"), learning_rate
// (one number, or one per batch: the client's own schedule) and assistant_turns; Anneal adds epochs,
// a validation split with an optional answer checker, and early stopping. null = default.
import { z } from "zod";
import { invalid } from "@/lib/contract/errors";
import type { ModelTrainingDefaults } from "../model-defaults";
import { checkerSchema, type CheckerConfig } from "../checkers/checker-config";
import { validationCount } from "./validation-split";

const DEFAULT_BATCH_SIZE = 2;
export const DEFAULT_EPOCHS = 1;
/** Epochs in a row without a better validation loss before training stops (with validation). */
export const DEFAULT_PATIENCE = 1;
const rate = z.number().refine(Number.isFinite, "must be a finite number").pipe(z.number().positive());

export const sftConfigSchema = z.looseObject({
  batch_size: z.union([z.int().positive(), z.literal("auto")]).nullish(),
  learning_rate: z.union([rate, z.array(rate).min(1)]).nullish(),
  assistant_turns: z.enum(["all", "last"]).nullish(),
  epochs: z.int().min(1).max(100).nullish().describe("Passes over the training examples (default 1); later passes are reshuffled."),
  validation_fraction: z
    .number()
    .min(0)
    .max(0.5)
    .nullish()
    .describe("Share of the examples held out for validation (not trained on); or send validation_data / validation_data_url."),
  validation_checker: checkerSchema
    .nullish()
    .describe("How a held-out reply is checked against the example's last assistant turn: val/accuracy at each epoch."),
  early_stopping_patience: z
    .int()
    .min(1)
    .nullish()
    .describe("With validation: stop after this many epochs without a lower val/loss and keep the best epoch's weights (default 1)."),
});
export type SftConfigInput = z.infer<typeof sftConfigSchema>;

export type AssistantTurns = "all" | "last";

export interface SftPlan {
  batchSize: number;
  epochs: number;
  /** Examples trained on (those not held out by validation_fraction, and rehearsal examples). */
  numTrain: number;
  stepsPerEpoch: number;
  /** One per gradient step (batch), over every epoch. */
  learningRates: number[];
  assistantTurns: AssistantTurns;
  /** Share of the examples held out (0: none, or validation examples of their own). */
  validationFraction: number;
  checker: CheckerConfig | null;
  patience: number;
}

/** Batches of batch_size training examples (the last may be smaller) for each epoch, each with its
 *  learning rate. `numExamples` counts every example sent, including those validation_fraction holds out;
 *  `rehearsed`: rehearsal examples the job trains on besides them (rehearsal.ts). */
export function planSft(config: SftConfigInput | null | undefined, defaults: ModelTrainingDefaults, numExamples: number, rehearsed = 0): SftPlan {
  const c = config ?? {};
  // "auto" is the client declining to choose; the engine's batches are small anyway.
  const batchSize = typeof c.batch_size === "number" ? c.batch_size : DEFAULT_BATCH_SIZE;
  const epochs = c.epochs ?? DEFAULT_EPOCHS;
  const validationFraction = c.validation_fraction ?? 0;
  const numTrain = numExamples - validationCount(validationFraction, numExamples) + rehearsed;
  const stepsPerEpoch = Math.ceil(numTrain / batchSize);
  const numSteps = stepsPerEpoch * epochs;
  const lr = c.learning_rate ?? defaults.defaultSftLearningRate;
  if (Array.isArray(lr) && lr.length !== numSteps) {
    throw invalid(["body", "config", "learning_rate"],
      `a list of learning rates needs one per batch: ${numTrain} examples in batches of ${batchSize}${epochs > 1 ? `, ${epochs} epochs,` : ""} make ${numSteps}, got ${lr.length}`);
  }
  return {
    batchSize,
    epochs,
    numTrain,
    stepsPerEpoch,
    learningRates: Array.isArray(lr) ? lr : Array.from({ length: numSteps }, () => lr),
    assistantTurns: c.assistant_turns ?? "all",
    validationFraction,
    checker: c.validation_checker ?? null,
    patience: c.early_stopping_patience ?? DEFAULT_PATIENCE,
  };
}
