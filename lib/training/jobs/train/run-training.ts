// One training job's computation, away from the database: load the starting weights (the base
// model or the newest checkpoint; for a LoRA model the base and its newest adapter) and optimizer
// state (open-training-model.ts), prepare the job's data (tokenize it, or take a remote worker's
// token ids as given: from-inputs.ts), take its gradient steps (from a saved state's step when an attempt
// resumes, saving the state every so often), and write the new checkpoint's GGUF (full weights, or
// the adapter) and optimizer state. Runs on a worker thread (train-thread.ts);
// the runner owns everything that touches the database.
import { writeLlamaGguf } from "@/lib/engine/gguf/llama-gguf";
import { writeLoraGguf } from "@/lib/engine/gguf/lora-gguf";
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import { str, u32, type GgufMetadata } from "@/lib/engine/gguf/values";
import { annealVocabulary, type TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import { prepareSubmittedRlJob } from "@/lib/training/rl/prepare-submitted-rl-job";
import type { GradientStepMetrics } from "@/lib/training/gradient-step";
import { rlSteps } from "@/lib/training/rl/rl-step";
import { SftJob } from "@/lib/training/sft/sft-job";
import type { JobReport } from "../job-report";
import { rlJobFromInputs, TokenSftJob, type SftRun } from "./from-inputs";
import { openTrainingModel } from "./open-training-model";
import { saveOptimizerState } from "./optimizer-state";
import { resumePointFrom, StateSaver, type SavedState } from "./state-saver";
import type { TextTrainingTask, TrainingTask } from "./training-task";
import type { ResumePoint } from "@/lib/training/resume-point";

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
 *  `vocabulary`: the start file's (loadTrainingVocabulary); Anneal's own tokenizer when absent.
 *  A token task needs none. */
export function runTraining(task: TrainingTask, hooks: TrainingHooks, vocabulary?: TrainingVocabulary): Record<string, number> {
  // A fresh adapter's A is drawn from the job's seed (the checkpoint's step): a retried attempt draws the same.
  const seed = "inputs" in task ? task.inputs.seed : task.step;
  const { start, model, optimizer, lora } = openTrainingModel({
    startGguf: task.startGguf,
    lora: task.lora && { ...task.lora, seed },
    startOptimizer: task.startOptimizer,
  });
  const { tokenizer } = start;
  // Tokenized and rendered as serving does this file: the tokens trained are the tokens it was served.
  const textVocabulary = (): TrainingVocabulary => {
    if (!vocabulary && !tokenizer) throw new Error("The base's tokenizer is llama.cpp's: the training thread must load it first.");
    return (vocabulary ??= annealVocabulary(tokenizer!, start.metadata));
  };

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
    const { job, config } = "inputs" in task ? rlJobFromInputs(task.inputs) : prepareSubmittedRlJob(task, textVocabulary(), start.config, lora);
    train(job.batches.length, (resume) => rlSteps(model, optimizer, job, config, resume, seed));
    metrics = {
      "train/reward": job.stats.reward,
      "train/reward_std_dev": job.stats.rewardStdDev,
      "train/num_groups_submitted": job.stats.numGroupsSubmitted,
      "train/num_groups_trainable": job.stats.numGroupsTrainable,
      "train/num_trajectories": job.stats.numTrajectories,
    };
  } else {
    const sft: SftRun = "inputs" in task ? new TokenSftJob(task.inputs, model) : sftJob(task, model, textVocabulary());
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
    // Full weights train on Anneal's own bases only: the start file's tokenizer is Anneal's.
    writeLlamaGguf(task.outputGguf, { config: start.config, weights: model.params.weights(), tokenizer: tokenizer!, chatTemplate: textVocabulary().format.template, name: task.modelName, metadata });
  }
  saveOptimizerState(task.outputOptimizer, optimizer);
  return metrics;
}

function sftJob(task: TextTrainingTask, model: LlamaModel, vocabulary: TrainingVocabulary): SftJob {
  return new SftJob({ model, vocabulary, data: task.data, validationData: task.validationData ?? null, config: task.config, defaults: task.defaults, seed: task.step, probe: task.probe });
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
