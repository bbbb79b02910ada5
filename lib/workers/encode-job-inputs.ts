// A job's task (as the embedded trainer would run it) → its inputs as token ids for a remote worker
// (job-inputs-schema.ts): the SFT rows, examples and plan of encodeSftJob, the RL micro-batches of
// prepareSubmittedRlJob, each row as long as its tokens, with per-token arrays about ids[i] as the
// target (a micro-batch's position p is about its row's entry p + 1). Anneal's trainer reads it
// back with lib/training/jobs/train/from-inputs.ts and takes the same steps.
import type { LlamaConfig } from "@/lib/engine/model/config";
import type { EncodedChat } from "@/lib/engine/tokenizer/chatml";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import { MAX_GRAD_NORM } from "@/lib/training/gradient-step";
import type { JobSourceTask } from "@/lib/training/jobs/load-job-task";
import { engineLoraConfig } from "@/lib/engine/model/lora-settings";
import type { RlConfig } from "@/lib/training/rl/experimental-config";
import { toWireLossSettings } from "@/lib/training/rl/wire-loss-settings";
import type { PreparedRlJob } from "@/lib/training/rl/prepare-rl-job";
import { prepareSubmittedRlJob } from "@/lib/training/rl/prepare-submitted-rl-job";
import { encodeSftJob, type EncodedSftJob } from "@/lib/training/sft/encode-sft-job";
import type { RlMicroBatch } from "@/lib/training/trajectories/micro-batches";
import type { JobInputs, RlInputs, SftInputs } from "@/lib/training/jobs/job-inputs-schema";

/** `vocabulary`: the start file's (loadTrainingVocabulary); `model`: its shape. */
export function encodeJobInputs(task: JobSourceTask, vocabulary: TrainingVocabulary, model: LlamaConfig): JobInputs {
  const lora = task.lora?.settings ?? null;
  const common = {
    kind: task.kind,
    mode: lora ? "lora" : "full",
    step: task.step,
    seed: task.step,
    pad_id: vocabulary.padId,
    max_grad_norm: MAX_GRAD_NORM,
    lora,
  } as const;
  if (task.kind === "rl") {
    const { job, config } = prepareSubmittedRlJob(task, vocabulary, model, lora && engineLoraConfig(lora));
    return { ...common, sft: null, rl: rlInputs(job, config) };
  }
  // No rehearsal: no job trains with it today (only bench:small-sft), and it would generate replies here.
  const encoded = encodeSftJob({
    format: vocabulary.format, contextLength: model.contextLength, data: task.data, validationData: task.validationData ?? null, config: task.config, defaults: task.defaults,
  });
  return { ...common, sft: sftInputs(encoded), rl: null };
}

function sftInputs({ train, validation, batches, plan }: EncodedSftJob): SftInputs {
  const rows: SftInputs["rows"] = [];
  const indexRows = (examples: EncodedChat[][]) =>
    examples.map((example) => example.map(({ ids, assistantMask }) => {
      // Entry 0 is 0: nothing predicts the first token.
      const weights = Array.from(assistantMask, (m, i) => (m && i > 0 ? 1 : 0));
      return rows.push({ ids, weights }) - 1;
    }));
  const examples = indexRows(train);
  return {
    rows,
    examples,
    validation: indexRows(validation),
    steps: batches.map((batch) => ({ examples: batch.examples, learning_rate: batch.learningRate })),
    steps_per_epoch: plan.stepsPerEpoch,
    patience: plan.patience,
  };
}

function rlInputs({ batches, stats }: PreparedRlJob, config: RlConfig): RlInputs {
  return {
    steps: batches.map((batch) => ({ rows: rowsOf(batch), num_trajectories: batch.numTrajectories })),
    loss: toWireLossSettings(config),
    learning_rate: config.learningRate,
    precalculate_logprobs: config.precalculateLogprobs,
    stats: {
      reward: stats.reward,
      reward_std_dev: stats.rewardStdDev,
      num_groups_submitted: stats.numGroupsSubmitted,
      num_groups_trainable: stats.numGroupsTrainable,
      num_trajectories: stats.numTrajectories,
    },
  };
}

/** A micro-batch's rows without their padding; entry 0 of each per-token array has no target. */
function rowsOf(batch: RlMicroBatch): RlInputs["steps"][number]["rows"] {
  const T = batch.seqLen;
  return batch.rowLengths.map((length, r) => {
    const perToken = <V>(values: ArrayLike<number>, none: V, value: (x: number) => V = (x) => x as V): V[] =>
      Array.from({ length }, (_, i) => (i === 0 ? none : value(values[r * T + i - 1])));
    return {
      ids: Array.from(batch.tokens.subarray(r * T, r * T + length)),
      mask: perToken<0 | 1>(batch.mask, 0, (x) => (x ? 1 : 0)),
      logprobs: perToken<number | null>(batch.oldLogprobs, null, (x) => (Number.isNaN(x) ? null : x)),
      advantages: perToken(batch.advantages, 0),
      weights: perToken(batch.weights, 0),
      segments: perToken(batch.segments, -1),
    };
  });
}
