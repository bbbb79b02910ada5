// A claimed job → the task its training thread runs: the base model (it must be trainable here),
// the weights to start from (the newest surviving checkpoint, else the base; a LoRA model's newest
// adapter over the base), the data (inline,
// or an uploaded JSONL file), where the new checkpoint goes, and where this attempt saves its
// state (and the saved state it resumes from, when an earlier attempt left one).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getEnv } from "@/lib/config/env";
import { dataPaths } from "@/lib/config/paths";
import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { log } from "@/lib/log";
import { describeLoraSettings, storedLoraSettings } from "@/lib/engine/model/lora-settings";
import { trainableBase, trainingDefaults } from "@/lib/training/trainable-base";
import { parseSftJsonl } from "@/lib/training/sft/sft-jsonl";
import { absoluteCheckpointPath, checkpointFileFor, optimizerStatePath, removeCheckpointFiles } from "./job-files";
import { appendOwnedEvents, type LeaseState } from "./queue";
import { jobStateDir, resumeStateFile } from "./saved-states";
import type { JobKind } from "./schemas";
import type { TextTrainingTask, TrainingTask } from "./train/training-task";

export interface LoadedJob {
  jobId: string;
  modelId: string;
  task: TrainingTask;
  /** The checkpoint file, relative to the checkpoints directory. */
  checkpointFile: string;
  /** `full` weights or a `lora` adapter, as the model trains. */
  checkpointFormat: "full" | "lora";
  /** Gradient steps already in the job's event feed (an earlier attempt's): not reported again. */
  reportedSteps: number;
  /** Writes training_started (once per job, whatever the attempt) and the step count, and records
   *  who runs this attempt from which step. */
  started(workerId: string, numSequences: number, fromStep: number): Promise<LeaseState>;
}

/** One claim of a job, as the job's `runs` keep it. */
export interface JobRun {
  attempt: number;
  worker: string;
  hostname: string;
  pid: number;
  /** Gradient steps done by earlier attempts that this one resumed from (0: from the start). */
  resumedFromStep: number;
  startedAt: string;
}

/** How often a running job saves its state (ANNEAL_TRAINING_SAVE_STEPS / _SECONDS). */
export interface SaveEvery {
  steps: number;
  ms: number;
}

/** SFT examples as stored: inline, or an uploaded file's id. */
export type SftData = { training_data: unknown[] } | { file_id: string };
/** The stored input of a job (what POST .../training-jobs and sft-training-jobs queue); an SFT
 *  job's validation examples of their own, if any, in `validation`. */
export type JobInput = { trajectory_groups: unknown[] } | (SftData & { validation?: SftData });

/** What a job trains on and from, as loadJobTask's task and a remote worker's inputs
 *  (lib/workers/job-inputs.ts) both read it: the task without this attempt's outputs and state. */
export type JobSourceTask = Omit<TextTrainingTask, "outputGguf" | "outputOptimizer" | "save" | "resume" | "stopRequest">;

export async function loadJobSource(jobId: string) {
  const job = await getDb().trainingJob.findUniqueOrThrow({
    where: { id: jobId },
    include: { model: { include: { project: { include: { team: true } } } } },
  });
  const { model } = job;
  const base = await trainableBase(model.baseModel);
  const lora = storedLoraSettings(model.lora);
  const latest = await getDb().checkpoint.findFirst({ where: { modelId: model.id }, orderBy: { step: "desc" } });
  const format = lora ? "lora" : "full";
  if (latest && latest.format !== format) {
    throw new Error(`Checkpoint step ${latest.step} is a ${latest.format} checkpoint, but the model trains ${describeLoraSettings(lora)}.`);
  }
  // Full weights start from the newest checkpoint; an adapter trains over the base, from the newest adapter.
  const startGguf = latest && !lora ? absoluteCheckpointPath(latest.file) : base.gguf;
  const startAdapter = latest && lora ? absoluteCheckpointPath(latest.file) : null;
  const startCheckpoint = startAdapter ?? (latest ? startGguf : null);
  if (![startGguf, startAdapter].every((file) => file === null || fs.existsSync(file))) {
    // The path stays in the worker's log: the job's error reaches the client.
    log.error("training job: the weights to train from are missing", { jobId, startGguf, startAdapter });
    throw new Error(`The weights to train from (${latest ? `checkpoint step ${latest.step}` : "the base model's file"}) are missing on disk.`);
  }

  const input = JSON.parse(job.input) as JobInput;
  const task: JobSourceTask = {
    kind: job.kind as JobKind,
    data: await jobData(input),
    validationData: "validation" in input && input.validation ? await jobData(input.validation) : null,
    config: job.config,
    defaults: trainingDefaults(base, format),
    probe: base.probeCorpus ? { base: base.name, corpus: base.probeCorpus } : null,
    startGguf,
    lora: lora && { settings: lora, startAdapter },
    startOptimizer: startCheckpoint && optimizerStatePath(startCheckpoint),
    modelName: `${model.project.team.name}/${model.project.name}/${model.name}`,
    step: model.currentStep + 1,
    rlRowsPerStep: getEnv().ANNEAL_RL_ROWS_PER_STEP,
  };
  return { job, format, task } as const;
}

export async function loadJobTask(jobId: string, attempt: number, saveEvery: SaveEvery): Promise<LoadedJob> {
  const { job, format, task: source } = await loadJobSource(jobId);
  const { model } = job;
  const checkpointFile = checkpointFileFor(model.id, job.id, attempt);
  const outputGguf = absoluteCheckpointPath(checkpointFile);
  fs.mkdirSync(path.dirname(outputGguf), { recursive: true });
  const task: TrainingTask = {
    ...source,
    outputGguf,
    outputOptimizer: optimizerStatePath(outputGguf),
    save: saveEvery.steps > 0 || saveEvery.ms > 0 ? { dir: jobStateDir(job.id), attempt, everySteps: saveEvery.steps, everyMs: saveEvery.ms } : null,
    resume: resumeStateFile(job),
  };
  const alreadyStarted = job.numSequences !== null;
  return {
    jobId: job.id,
    modelId: model.id,
    task,
    checkpointFile,
    checkpointFormat: format,
    reportedSteps: job.stepsDone,
    started: async (workerId, numSequences, fromStep) => {
      const run: JobRun = { attempt, worker: workerId, hostname: os.hostname(), pid: process.pid, resumedFromStep: fromStep, startedAt: new Date().toISOString() };
      log.info(fromStep > 0 ? `training job: attempt ${attempt} resumed from step ${fromStep}` : `training job: attempt ${attempt} started`, { jobId: job.id, ...run });
      const runs = [...(job.runs as unknown as JobRun[]), run] as unknown as Prisma.InputJsonValue;
      // A retried job trains the same data again: its training_started stands (clients have seen it).
      return alreadyStarted
        ? appendOwnedEvents(job.id, workerId, [], { runs })
        : appendOwnedEvents(job.id, workerId, [{ type: "training_started", data: { num_sequences: numSequences } }], { numSequences, runs });
    },
  };
}

export function removeJobOutputs(task: TrainingTask): void {
  removeCheckpointFiles(path.relative(dataPaths().checkpoints, task.outputGguf));
}

async function jobData(input: JobInput): Promise<unknown[]> {
  if ("trajectory_groups" in input) return input.trajectory_groups;
  if ("training_data" in input) return input.training_data;
  const file = await getDb().file.findUnique({ where: { id: input.file_id } });
  if (!file) throw new Error(`The training data file ${input.file_id} was deleted before the job started.`);
  const text = fs.readFileSync(path.resolve(dataPaths().files, file.path), "utf8");
  return parseSftJsonl(text, `file ${file.filename}`);
}
