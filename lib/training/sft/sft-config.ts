// `config` of an SFT job (docs/contract.md "Training jobs"): batch_size (int or "auto"), learning_rate
// (one number, or one per batch: the client's own schedule) and assistant_turns; null = default.
import { z } from "zod";
import { invalid } from "@/lib/contract/errors";
import type { ModelTrainingDefaults } from "../model-defaults";

const DEFAULT_BATCH_SIZE = 2;
const rate = z.number().refine(Number.isFinite, "must be a finite number").pipe(z.number().positive());

export const sftConfigSchema = z.looseObject({
  batch_size: z.union([z.int().positive(), z.literal("auto")]).nullish(),
  learning_rate: z.union([rate, z.array(rate).min(1)]).nullish(),
  assistant_turns: z.enum(["all", "last"]).nullish(),
});
export type SftConfigInput = z.infer<typeof sftConfigSchema>;

export type AssistantTurns = "all" | "last";

export interface SftPlan {
  batchSize: number;
  /** One per gradient step (batch). */
  learningRates: number[];
  assistantTurns: AssistantTurns;
}

/** Batches of batch_size examples (the last may be smaller), each with its learning rate. */
export function planSft(config: SftConfigInput | null | undefined, defaults: ModelTrainingDefaults, numExamples: number): SftPlan {
  const c = config ?? {};
  // "auto" is the client declining to choose; the engine's batches are small anyway.
  const batchSize = typeof c.batch_size === "number" ? c.batch_size : DEFAULT_BATCH_SIZE;
  const numBatches = Math.ceil(numExamples / batchSize);
  const lr = c.learning_rate ?? defaults.defaultSftLearningRate;
  if (Array.isArray(lr) && lr.length !== numBatches) {
    throw invalid(["body", "config", "learning_rate"],
      `a list of learning rates needs one per batch: ${numExamples} examples in batches of ${batchSize} make ${numBatches}, got ${lr.length}`);
  }
  return {
    batchSize,
    learningRates: Array.isArray(lr) ? lr : Array.from({ length: numBatches }, () => lr),
    assistantTurns: c.assistant_turns ?? "all",
  };
}
