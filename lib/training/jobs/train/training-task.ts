// What a training thread is asked to do (runTraining): a job's start weights, output files, saving and
// resuming, and the job itself — as submitted (text, tokenized on the thread with the start file's
// vocabulary) or as token ids (a remote worker's inputs, never tokenized).
import type { JobInputs } from "@/lib/training/jobs/job-inputs-schema";
import type { ModelTrainingDefaults } from "@/lib/training/model-defaults";
import type { LoraSettings } from "@/lib/engine/model/lora-settings";
import type { BaseProbe } from "@/lib/training/sft/knowledge-probe";
import type { JobKind } from "../schemas";
import type { SaveSettings } from "./state-saver";

interface TaskCommon {
  kind: JobKind;
  /** Weights to start from (the base model, or the newest full checkpoint), and the optimizer state
   *  saved with the checkpoint the job continues (absent for a fresh start). */
  startGguf: string;
  /** A LoRA model: its adapter settings, and the newest adapter to continue (null: a fresh one).
   *  Its checkpoint is an adapter over startGguf. */
  lora?: { settings: LoraSettings; startAdapter: string | null } | null;
  startOptimizer: string | null;
  outputGguf: string;
  outputOptimizer: string;
  /** The checkpoint being written, for the GGUF's metadata. */
  modelName: string;
  step: number;
  /** Where and how often this attempt saves its state; none: never. */
  save?: SaveSettings | null;
  /** A state an earlier attempt saved (absolute path): the job resumes from it if it fits. */
  resume?: string | null;
  /** Shared with the runner, which sets [0] to 1 when it shuts down: the state is saved after the
   *  step in progress and training stops (TrainingStopped), so the next attempt redoes no step. */
  stopRequest?: Int32Array;
}

/** A job as submitted: tokenized here, with the start file's vocabulary. */
export interface TextTrainingTask extends TaskCommon {
  /** rl: the trajectory groups as submitted; sft: the examples ({messages, tools?}). */
  data: unknown;
  /** sft: validation examples of their own (validation_data or its file), if any. */
  validationData?: unknown;
  config: unknown;
  defaults: ModelTrainingDefaults;
  /** sft: the base's own probe set, where it declares one. */
  probe?: BaseProbe | null;
  /** RL: training rows per gradient step (ANNEAL_RL_ROWS_PER_STEP), within rlTokensPerStep. */
  rlRowsPerStep: number;
}

/** A job as a remote worker gets it (lib/training/jobs/job-inputs-schema.ts): token ids, trained as
 *  given and never tokenized (tokenTrainingTask builds one). Its seed is the inputs'. */
export interface TokenTrainingTask extends TaskCommon {
  inputs: JobInputs;
}

export type TrainingTask = TextTrainingTask | TokenTrainingTask;

/** The task that trains `inputs` over local files: the start weights (the base, or the newest full
 *  checkpoint), the adapter to continue, where the checkpoint goes, saving and resuming. */
export function tokenTrainingTask(
  inputs: JobInputs,
  files: Omit<TokenTrainingTask, "inputs" | "kind" | "step" | "lora"> & { startAdapter: string | null },
): TokenTrainingTask {
  const { startAdapter, ...rest } = files;
  return { ...rest, inputs, kind: inputs.kind, step: inputs.step, lora: inputs.lora && { settings: inputs.lora, startAdapter } };
}

