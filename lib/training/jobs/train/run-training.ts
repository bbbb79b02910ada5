// One training job's computation, away from the database: load the starting weights (the base
// model or the newest checkpoint; for a LoRA model the base and its newest adapter) and optimizer
// state (open-training-model.ts), prepare the job's data, take its gradient steps (from a saved state's step when an attempt
// resumes, saving the state every so often), and write the new checkpoint's GGUF (full weights, or
// the adapter) and optimizer state. Runs on a worker thread (train-thread.ts);
// the runner owns everything that touches the database.
import { writeLlamaGguf } from "@/lib/engine/gguf/llama-gguf";
import { writeLoraGguf } from "@/lib/engine/gguf/lora-gguf";
import { str, u32, type GgufMetadata } from "@/lib/engine/gguf/values";
import { annealVocabulary, type TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import type { ModelTrainingDefaults } from "@/lib/training/model-defaults";
import type { LoraSettings } from "@/lib/training/models/lora-settings";
import { resolveRlConfig, experimentalConfigSchema } from "@/lib/training/rl/experimental-config";
import { prepareRlJob } from "@/lib/training/rl/prepare-rl-job";
import type { GradientStepMetrics } from "@/lib/training/gradient-step";
import { rlSteps } from "@/lib/training/rl/rl-step";
import type { BaseProbe } from "@/lib/training/sft/knowledge-probe";
import { SftJob } from "@/lib/training/sft/sft-job";
import { parseTrajectoryGroups } from "@/lib/training/trajectories/parse-trajectory-groups";
import type { JobReport } from "../job-report";
import type { JobKind } from "../schemas";
import { openTrainingModel } from "./open-training-model";
import { saveOptimizerState } from "./optimizer-state";
import { resumePointFrom, StateSaver, type SavedState, type SaveSettings } from "./state-saver";
import type { ResumePoint } from "@/lib/training/resume-point";
import { rlTokensPerStep } from "@/lib/training/rl/step-tokens";

export interface TrainingTask {
  kind: JobKind;
  /** rl: the trajectory groups as submitted; sft: the examples ({messages, tools?}). */
  data: unknown;
  /** sft: validation examples of their own (validation_data or its file), if any. */
  validationData?: unknown;
  config: unknown;
  defaults: ModelTrainingDefaults;
  /** sft: the base's own probe set, where it declares one. */
  probe?: BaseProbe | null;
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
  /** RL: training rows per gradient step (ANNEAL_RL_ROWS_PER_STEP), within rlTokensPerStep. */
  rlRowsPerStep: number;
  /** Shared with the runner, which sets [0] to 1 when it shuts down: the state is saved after the
   *  step in progress and training stops (TrainingStopped), so the next attempt redoes no step. */
  stopRequest?: Int32Array;
}

/** Training stopped at the runner's request (`stopRequest`), its state saved. */
export class TrainingStopped extends Error {
  constructor() {
    super("Training stopped: the runner is shutting down.");
  }
}

export interface TrainingHooks {
  /** fromStep: the gradient steps done already (a resumed state's), else 0. */
  started(numSequences: number, fromStep: number): void;
  gradientStep(metrics: GradientStepMetrics): void;
  saved?(state: SavedState): void;
  /** SFT: the guard rails' warnings and sample replies, before the checkpoint is written. */
  report?(report: JobReport): void;
}

/** Trains and writes the checkpoint; returns the checkpoint's training metrics (`train/...`).
 *  `vocabulary`: the start file's (loadTrainingVocabulary); Anneal's own tokenizer when absent. */
export function runTraining(task: TrainingTask, hooks: TrainingHooks, vocabulary?: TrainingVocabulary): Record<string, number> {
  // A fresh adapter's A is drawn from the checkpoint's step: a retried attempt draws the same.
  const { start, model, optimizer, lora } = openTrainingModel({
    startGguf: task.startGguf,
    lora: task.lora && { ...task.lora, seed: task.step },
    startOptimizer: task.startOptimizer,
  });
  const { tokenizer } = start;
  // Tokenized and rendered as serving does this file: the tokens trained are the tokens it was served.
  if (!vocabulary && !tokenizer) throw new Error("The base's tokenizer is llama.cpp's: the training thread must load it first.");
  vocabulary ??= annealVocabulary(tokenizer!, start.metadata);
  const { format } = vocabulary;

  const steps: GradientStepMetrics[] = [];
  /** `kept`: weights the job has set aside to end with, saved with its state. */
  const train = (numSequences: number, run: (resume?: ResumePoint) => Iterable<GradientStepMetrics>, kept: () => Float32Array | null = () => null) => {
    const job = { startGguf: task.lora?.startAdapter ?? task.startGguf, numSequences };
    const resume = resumePointFrom(task.resume, job, model, optimizer, steps);
    const saver = new StateSaver(task.save, job, resume?.step ?? 0);
    hooks.started(numSequences, resume?.step ?? 0);
    for (const metrics of run(resume)) {
      steps.push(metrics);
      hooks.gradientStep(metrics);
      const stopping = task.stopRequest !== undefined && Atomics.load(task.stopRequest, 0) === 1 && steps.length < numSequences;
      const saved = stopping ? saver.saveNow(model, optimizer, steps, kept()) : saver.afterStep(model, optimizer, steps, kept());
      if (saved) hooks.saved?.(saved);
      if (stopping) throw new TrainingStopped();
    }
  };

  let metrics: Record<string, number>;
  if (task.kind === "rl") {
    const groups = parseTrajectoryGroups(task.data);
    const config = resolveRlConfig(experimentalConfigSchema.parse(task.config ?? {}), task.defaults);
    // Padded tokens per step (one micro-batch): the model's activation bound (step-tokens.ts); no
    // history may be longer, so no step exceeds it. Rows per step: ANNEAL_RL_ROWS_PER_STEP.
    const tokens = rlTokensPerStep(start.config, lora);
    const job = prepareRlJob({ groups, vocabulary, config, limits: { rows: task.rlRowsPerStep, tokens }, contextLength: Math.min(start.config.contextLength, tokens) });
    train(job.batches.length, (resume) => rlSteps(model, optimizer, job, config, resume, task.step));
    metrics = {
      "train/reward": job.stats.reward,
      "train/reward_std_dev": job.stats.rewardStdDev,
      "train/num_groups_submitted": job.stats.numGroupsSubmitted,
      "train/num_groups_trainable": job.stats.numGroupsTrainable,
      "train/num_trajectories": job.stats.numTrajectories,
    };
  } else {
    const sft = new SftJob({ model, vocabulary, data: task.data, validationData: task.validationData ?? null, config: task.config, defaults: task.defaults, seed: task.step, probe: task.probe });
    train(sft.numSteps, (resume) => sft.steps(optimizer, resume), () => sft.keptWeights);
    const end = sft.finish(steps);
    metrics = end.metrics;
    hooks.report?.(end.report);
  }
  Object.assign(metrics, meanOf(steps, ["loss", "entropy", "grad_norm", "num_trainable_tokens"]));

  const carried: GgufMetadata = {};
  for (const key of ["general.description"]) if (start.metadata[key]) carried[key] = start.metadata[key];
  const metadata: GgufMetadata = { ...carried, "anneal.training.step": u32(task.step), "anneal.training.kind": str(task.kind) };
  if (lora) {
    writeLoraGguf(task.outputGguf, { config: start.config, adapters: model.adapters(), alpha: lora.alpha, metadata: { "general.name": str(task.modelName), ...metadata } });
  } else {
    writeLlamaGguf(task.outputGguf, { config: start.config, weights: model.params.weights(), tokenizer: tokenizer!, chatTemplate: format.template, name: task.modelName, metadata });
  }
  saveOptimizerState(task.outputOptimizer, optimizer);
  return metrics;
}

/** `train/<key>` = the mean over the job's gradient steps, for the keys the steps reported. */
function meanOf(steps: readonly GradientStepMetrics[], keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of keys) {
    const values = steps.map((s) => s[key]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
    if (values.length) out[`train/${key}`] = values.reduce((a, b) => a + b, 0) / values.length;
  }
  return out;
}
