// One RL gradient step on one micro-batch: forward, the policy loss and its ∂L/∂log π, backward,
// global-norm clipping, AdamW at the job's learning rate. Returns the gradient_step event's data:
// a flat dict of finite numbers (ART's client calls float() on every value).
import type { AdamW } from "@/lib/engine/model/adamw";
import { clipGradNorm } from "@/lib/engine/model/clip-grad-norm";
import type { LlamaModel } from "@/lib/engine/model/llama-model";
import type { ResumePoint } from "../resume-point";
import type { RlMicroBatch } from "../trajectories/micro-batches";
import type { RlConfig } from "./experimental-config";
import { dropoutSeedFor } from "@/lib/engine/model/lora";
import { policyLoss, type LossSettings } from "./policy-loss";
import { precalculateLogprobs } from "./precalculate-logprobs";
import { servedAbsLogRatio } from "./served-log-ratio";
import { MAX_GRAD_NORM, type GradientStepMetrics } from "../gradient-step";
import type { PreparedRlJob, RlJobStats } from "./prepare-rl-job";

/** What the steps use of a job's RlConfig (the rest shaped its micro-batches: prepare-rl-job.ts). */
export type RlStepConfig = LossSettings & Pick<RlConfig, "learningRate" | "precalculateLogprobs">;

export interface RlStepOptions {
  model: LlamaModel;
  optimizer: AdamW;
  batch: RlMicroBatch;
  config: RlStepConfig;
  /** 1-based index of this step within the job. */
  step: number;
  /** The job's seed: with the step, it draws a LoRA model's dropout masks (a resumed step draws the same). */
  seed: number;
  stats: RlJobStats;
  maxGradNorm?: number;
}

export function rlStep({ model, optimizer, batch, config, step, seed, stats, maxGradNorm = MAX_GRAD_NORM }: RlStepOptions): GradientStepMetrics {
  const { logprobs, entropies } = model.forward(batch, { dropoutSeed: dropoutSeedFor(seed, step) });
  const dLogprobs = new Float32Array(logprobs.length);
  const { loss, meanRatio } = policyLoss(logprobs, logprobs, batch, config, dLogprobs);
  let trainableTokens = 0, weightedEntropy = 0;
  for (let t = 0; t < batch.mask.length; t++) {
    trainableTokens += batch.mask[t];
    weightedEntropy += entropies[t] * batch.weights[t] * batch.mask[t];
  }
  model.params.zeroGrads();
  model.backward(dLogprobs);
  const gradNorm = clipGradNorm(model.params.grads, maxGradNorm);
  // A non-finite gradient (e.g. an absurd sampler logprob under PPO) must not reach the weights,
  // and NaN cannot be reported as a number: the job fails with the reason instead.
  if (!Number.isFinite(gradNorm) || !Number.isFinite(loss)) {
    throw new Error(`RL step ${step}: the loss or gradient is not finite (loss ${loss}, grad norm ${gradNorm}); the weights were left unchanged`);
  }
  optimizer.update(config.learningRate);
  return {
    step,
    loss,
    policy_loss: loss,
    entropy: weightedEntropy / (trainableTokens + 1e-6),
    grad_norm: gradNorm,
    learning_rate: config.learningRate,
    num_trajectories: batch.numTrajectories,
    num_trainable_tokens: trainableTokens,
    mean_ratio: meanRatio,
    reward: stats.reward,
    reward_std_dev: stats.rewardStdDev,
    num_groups_submitted: stats.numGroupsSubmitted,
    num_groups_trainable: stats.numGroupsTrainable,
  };
}

/** Every step of a prepared job in order (precalculating π_old first when asked), or those after
 *  a resume point; the caller emits each step's metrics as it comes and may stop between steps. */
export function* rlSteps(model: LlamaModel, optimizer: AdamW, job: PreparedRlJob, config: RlStepConfig, resume?: ResumePoint, seed = 0): Generator<GradientStepMetrics> {
  // Before precalculate_logprobs replaces them: the served log-probs against the start weights'.
  const served = !resume && job.batches.length > 0 ? servedAbsLogRatio(model, job.batches[0]) : null;
  if (config.precalculateLogprobs) precalculateLogprobs(model, job.batches);
  resume?.restore();
  for (let i = resume?.step ?? 0; i < job.batches.length; i++) {
    const metrics = rlStep({ model, optimizer, batch: job.batches[i], config, step: i + 1, seed, stats: job.stats });
    yield i === 0 && served !== null ? { ...metrics, served_abs_log_ratio: served } : metrics;
  }
}
