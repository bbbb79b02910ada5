// An RL job as submitted (its trajectory groups and experimental_config) → its resolved settings and
// micro-batches, sized for the model that trains it: Anneal's trainer (run-training.ts) and a remote
// worker's inputs (lib/workers/job-inputs.ts) pack the same steps.
import type { LlamaConfig } from "@/lib/engine/model/config";
import type { LoraConfig } from "@/lib/engine/model/lora";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import type { ModelTrainingDefaults } from "../model-defaults";
import { parseTrajectoryGroups } from "../trajectories/parse-trajectory-groups";
import { experimentalConfigSchema, resolveRlConfig, type RlConfig } from "./experimental-config";
import { prepareRlJob, type PreparedRlJob } from "./prepare-rl-job";
import { rlTokensPerStep } from "./step-tokens";

export interface SubmittedRlJob {
  /** The trajectory groups as submitted. */
  data: unknown;
  /** experimental_config. */
  config: unknown;
  defaults: ModelTrainingDefaults;
  /** Training rows per gradient step (ANNEAL_RL_ROWS_PER_STEP). */
  rlRowsPerStep: number;
}

/** `lora`: the adapter's engine config, null for full weights. */
export function prepareSubmittedRlJob(submitted: SubmittedRlJob, vocabulary: TrainingVocabulary, model: LlamaConfig, lora: LoraConfig | null): { job: PreparedRlJob; config: RlConfig } {
  const groups = parseTrajectoryGroups(submitted.data);
  const config = resolveRlConfig(experimentalConfigSchema.parse(submitted.config ?? {}), submitted.defaults);
  // Padded tokens per step (one micro-batch): the model's activation bound (step-tokens.ts); no
  // history may be longer, so no step exceeds it. Rows per step: ANNEAL_RL_ROWS_PER_STEP.
  const tokens = rlTokensPerStep(model, lora);
  const job = prepareRlJob({ groups, vocabulary, config, limits: { rows: submitted.rlRowsPerStep, tokens }, contextLength: Math.min(model.contextLength, tokens) });
  return { job, config };
}
