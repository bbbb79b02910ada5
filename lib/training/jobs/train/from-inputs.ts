// Anneal's trainer on a job as a remote worker gets it (lib/training/jobs/job-inputs-schema.ts): the
// token ids, masks and weights rebuilt into the rows and micro-batches the local path trains (the
// inverse of lib/workers/encode-job-inputs.ts), so the same gradient steps follow. What needs text
// (the SFT guard rails' replies, sample replies, probes) cannot run from tokens: the trainer's own
// report says so, and the server measures them on the uploaded checkpoint instead
// (lib/workers/remote-guard-rails.ts).
import type { AdamW } from "@/lib/engine/model/adamw";
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import { conversationRows } from "@/lib/engine/train/packed-batch";
import type { EncodedChat } from "@/lib/engine/tokenizer/chatml";
import { MAX_GRAD_NORM, type GradientStepMetrics } from "@/lib/training/gradient-step";
import type { ResumePoint } from "@/lib/training/resume-point";
import type { PreparedRlJob } from "@/lib/training/rl/prepare-rl-job";
import type { RlStepConfig } from "@/lib/training/rl/rl-step";
import { fromWireLossSettings } from "@/lib/training/rl/wire-loss-settings";
import { SftEpochs } from "@/lib/training/sft/sft-epochs";
import type { RlMicroBatch } from "@/lib/training/trajectories/micro-batches";
import type { JobInputs, RlInputs } from "@/lib/training/jobs/job-inputs-schema";
import type { JobReport } from "../job-report";

export const GUARD_RAILS_NOT_RUN = {
  code: "guard_rails_not_run",
  message: "Trained by a remote worker from token ids: the before/after reply checks did not run; try the checkpoint in the playground.",
};

/** What runTraining drives of an SFT job, from text (SftJob) or from token ids (TokenSftJob). */
export interface SftRun {
  readonly numSteps: number;
  readonly keptWeights: Float32Array | null;
  steps(optimizer: AdamW, resume?: ResumePoint): Generator<GradientStepMetrics>;
  finish(steps: readonly GradientStepMetrics[]): { metrics: Record<string, number>; report: JobReport };
}

/** An SFT job's rows, examples and plan as given: the same steps, val/loss and early stopping as
 *  SftJob; its metrics are those that need no text. */
export class TokenSftJob implements SftRun {
  private readonly epochs: SftEpochs;
  private readonly numExamples: number;
  /** The starting weights' val/loss, measured before any step. */
  private readonly baseLoss: number;

  constructor(inputs: JobInputs, model: LlamaModel) {
    const sft = partOf(inputs, "sft");
    const rows = sft.rows.map(({ ids, weights }): EncodedChat => ({ ids, assistantMask: Uint8Array.from(weights) }));
    this.numExamples = sft.examples.length;
    this.epochs = new SftEpochs({
      model,
      padId: inputs.pad_id,
      train: sft.examples.map((example) => example.map((r) => rows[r])),
      batches: sft.steps.map((step) => ({ examples: step.examples, learningRate: step.learning_rate })),
      stepsPerEpoch: sft.steps_per_epoch,
      validationRows: sft.validation.flat().map((r) => rows[r]),
      patience: sft.patience,
      seed: inputs.seed,
    });
    this.baseLoss = this.epochs.validationLoss();
  }

  get numSteps(): number {
    return this.epochs.numSteps;
  }

  get keptWeights(): Float32Array | null {
    return this.epochs.keptWeights;
  }

  steps(optimizer: AdamW, resume?: ResumePoint): Generator<GradientStepMetrics> {
    return this.epochs.steps(optimizer, resume);
  }

  finish(): { metrics: Record<string, number>; report: JobReport } {
    this.epochs.keepBest();
    const metrics: Record<string, number> = { "train/num_examples": this.numExamples, "train/epochs": this.epochs.epochsDone };
    if (this.epochs.heldOut) {
      Object.assign(metrics, { "val/loss": this.epochs.validationLoss(), "val/base_loss": this.baseLoss, "val/best_epoch": this.epochs.stopping.bestEpoch });
    }
    return { metrics, report: { warnings: [GUARD_RAILS_NOT_RUN], samples: [] } };
  }
}

/** An RL job's micro-batches, reward statistics and loss settings as given. */
export function rlJobFromInputs(inputs: JobInputs): { job: PreparedRlJob; config: RlStepConfig } {
  const rl = partOf(inputs, "rl");
  const { loss, stats } = rl;
  return {
    job: {
      batches: rl.steps.map((step) => microBatchFromInputs(step, inputs.pad_id)),
      stats: {
        reward: stats.reward,
        rewardStdDev: stats.reward_std_dev,
        numGroupsSubmitted: stats.num_groups_submitted,
        numGroupsTrainable: stats.num_groups_trainable,
        numTrajectories: stats.num_trajectories,
      },
    },
    config: {
      ...fromWireLossSettings(loss),
      learningRate: rl.learning_rate,
      precalculateLogprobs: rl.precalculate_logprobs,
    },
  };
}

/** The rows right-padded to the longest, as micro-batches.ts packs them: position p of a row holds
 *  what the inputs say of its target, entry p + 1. */
function microBatchFromInputs(step: RlInputs["steps"][number], padId: number): RlMicroBatch {
  const { tokens, targets, weights: mask, batchSize, seqLen: T } = conversationRows(
    step.rows.map(({ ids, mask }) => ({ ids, assistantMask: Uint8Array.from(mask) })), padId, "assistant",
  );
  const M = batchSize * T;
  const oldLogprobs = new Float32Array(M).fill(NaN);
  const advantages = new Float32Array(M);
  const weights = new Float32Array(M);
  const segments = new Int32Array(M).fill(-1);
  step.rows.forEach((row, r) => {
    for (let i = 1; i < row.ids.length; i++) {
      const at = r * T + i - 1;
      oldLogprobs[at] = row.logprobs[i] ?? NaN;
      advantages[at] = row.advantages[i];
      weights[at] = row.weights[i];
      segments[at] = row.segments[i];
    }
  });
  return {
    tokens, targets, batchSize, seqLen: T, mask, oldLogprobs, advantages, weights, segments, numTrajectories: step.num_trajectories,
    rowLengths: step.rows.map((row) => row.ids.length),
  };
}

/** The part of the inputs for their kind; Anneal's trainer clips as every job does. */
function partOf<K extends "sft" | "rl">(inputs: JobInputs, kind: K): NonNullable<JobInputs[K]> {
  const part = inputs[kind];
  if (!part) throw new Error(`These inputs of a ${inputs.kind} job carry no ${kind} part.`);
  if (inputs.max_grad_norm !== MAX_GRAD_NORM) throw new Error(`Anneal's trainer clips gradients to a norm of ${MAX_GRAD_NORM}, not ${inputs.max_grad_norm}.`);
  return part as NonNullable<JobInputs[K]>;
}
