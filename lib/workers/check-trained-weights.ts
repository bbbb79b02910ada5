// The guard rails of an SFT job a remote worker trained, measured by the server on its own engine
// (docs/workers.md "Guard rails"): the job's text encoded as the embedded trainer encodes it, the
// weights it started from and the checkpoint the worker uploaded each measured by SftChecks — the
// pieces a local job measures itself with — so the report is what a local job would have given for
// those weights. Runs on the guard-rails thread (guard-rails-thread.ts); past the deadline it stops
// at the next generated token and says how far it got.
import { GenerationDeadlinePassed } from "@/lib/engine/train/greedy-generate";
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import { loadTrainingVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import type { JobReport } from "@/lib/training/jobs/job-report";
import type { JobSourceTask } from "@/lib/training/jobs/load-job-task";
import { openTrainingModel } from "@/lib/training/jobs/train/open-training-model";
import { encodeSftJob } from "@/lib/training/sft/encode-sft-job";
import { SftChecks } from "@/lib/training/sft/sft-checks";

export interface TrainedWeightsRequest {
  /** The job as the embedded trainer would run it: its start (the base, the newest full checkpoint
   *  or the newest adapter), data, config and probe. */
  task: JobSourceTask;
  /** The checkpoint the worker uploaded, as stored (absolute): an adapter over task.startGguf, or full weights. */
  checkpoint: string;
  /** The job's gradient steps' losses, in order. */
  trainLosses: number[];
  /** Date.now() past which the checks stop. */
  deadline: number;
}

export type TrainedWeightsAnswer =
  | { measured: { metrics: Record<string, number>; report: JobReport } }
  /** The deadline passed while measuring `during`. */
  | { cutShort: { during: "the starting weights" | "the checkpoint" } };

export async function checkTrainedWeights({ task, checkpoint, trainLosses, deadline }: TrainedWeightsRequest): Promise<TrainedWeightsAnswer> {
  const { vocabulary, close } = await loadTrainingVocabulary(task.startGguf);
  // A fresh adapter is drawn from the job's step as the embedded trainer draws it (its B = 0: the base's own replies).
  const open = (startAdapter: string | null, startGguf = task.startGguf) =>
    openTrainingModel({ startGguf, lora: task.lora && { settings: task.lora.settings, startAdapter, seed: task.step } }).model;
  let during: "the starting weights" | "the checkpoint" = "the starting weights";
  try {
    const { checks, before } = measureStart(task, open(task.lora?.startAdapter ?? null), vocabulary, deadline);
    during = "the checkpoint";
    const after = checks.measure(task.lora ? open(checkpoint) : open(null, checkpoint), vocabulary);
    return { measured: checks.report(before, after, trainLosses) };
  } catch (error) {
    if (error instanceof GenerationDeadlinePassed) return { cutShort: { during } };
    throw error;
  } finally {
    await close();
  }
}

/** The job's checks, and the starting weights measured (the model goes with this call: one model in
 *  memory at a time). */
function measureStart(task: JobSourceTask, start: LlamaModel, vocabulary: TrainingVocabulary, deadline: number) {
  const encoded = encodeSftJob({
    format: vocabulary.format, contextLength: start.config.contextLength, data: task.data, validationData: task.validationData ?? null, config: task.config, defaults: task.defaults,
  });
  const checks = new SftChecks({ format: vocabulary.format, encoded, probe: task.probe, deadline });
  return { checks, before: checks.measure(start, vocabulary) };
}
