// From an RL job's trajectory groups to its micro-batches: group advantages (dropping trajectories
// whose advantage is 0), tokenization, token weights and advantage_balance over the whole job,
// then packing. Every trajectory is tokenized, kept or not, so bad data is reported the same way
// whatever the rewards.
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import { buildMicroBatches, type MicroBatchLimits, type RlMicroBatch } from "../trajectories/micro-batches";
import type { TrajectoryGroup } from "../trajectories/schemas";
import type { TrainingRow } from "../trajectories/tokenize-conversation";
import { tokenizeTrajectory } from "../trajectories/tokenize-trajectory";
import { computeGroupAdvantages, rewardStats } from "./compute-group-advantages";
import type { RlConfig } from "./experimental-config";
import { balanceAdvantages, tokenWeights } from "./token-weights";

export interface RlJobStats {
  /** Mean reward over every submitted trajectory. */
  reward: number;
  /** Mean over groups of each group's population reward std (ART's reward_std_dev). */
  rewardStdDev: number;
  numGroupsSubmitted: number;
  /** Groups with at least one trajectory left to train. */
  numGroupsTrainable: number;
  /** Trajectories left to train (non-zero advantage, at least one trainable token). */
  numTrajectories: number;
}

export interface PreparedRlJob {
  /** One gradient step each; empty when nothing is trainable. */
  batches: RlMicroBatch[];
  stats: RlJobStats;
}

export interface PrepareRlJobOptions {
  groups: readonly TrajectoryGroup[];
  /** The model's vocabulary: its prompts rendered and tokenized as serving does, its pad. */
  vocabulary: TrainingVocabulary;
  config: Pick<RlConfig, "scaleRewards" | "advantageBalance">;
  /** The size of a micro-batch, one gradient step (a trajectory that alone exceeds it gets one of its own). */
  limits: MicroBatchLimits;
  /** The model's context length: the longest history it can train on. */
  contextLength: number;
}

export function prepareRlJob(o: PrepareRlJobOptions): PreparedRlJob {
  const kept: { rows: TrainingRow[]; trainableTokens: number; advantage: number }[] = [];
  let trainableGroups = 0;
  o.groups.forEach((g, group) => {
    const advantages = computeGroupAdvantages(g.trajectories.map((t) => t.reward), o.config.scaleRewards);
    const before = kept.length;
    g.trajectories.forEach((t, trajectory) => {
      const rows = tokenizeTrajectory(o.vocabulary.format, o.vocabulary, t, { group, trajectory }, o.contextLength).filter((r) => r.trainable.includes(1));
      const trainableTokens = rows.reduce((n, r) => n + r.trainable.reduce((a, b) => a + b, 0), 0);
      if (advantages[trajectory] !== 0 && trainableTokens > 0) kept.push({ rows, trainableTokens, advantage: advantages[trajectory] });
    });
    if (kept.length > before) trainableGroups++;
  });

  const weights = tokenWeights(kept);
  const advantages = balanceAdvantages(kept, weights, o.config.advantageBalance);
  const batches = buildMicroBatches(kept.map((t, j) => ({ rows: t.rows, advantage: advantages[j], weight: weights[j] })), o.limits, o.vocabulary.padId);

  const allRewards = o.groups.flatMap((g) => g.trajectories.map((t) => t.reward));
  const groupStds = o.groups.filter((g) => g.trajectories.length > 0).map((g) => rewardStats(g.trajectories.map((t) => t.reward)).std);
  return {
    batches,
    stats: {
      reward: rewardStats(allRewards).mean,
      rewardStdDev: groupStds.length ? groupStds.reduce((a, b) => a + b, 0) / groupStds.length : 0,
      numGroupsSubmitted: o.groups.length,
      numGroupsTrainable: trainableGroups,
      numTrajectories: kept.length,
    },
  };
}
