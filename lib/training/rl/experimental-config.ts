// experimental_config of an RL job (docs/rl-loss.md, as ART sends it): every field optional and
// nullable, null meaning "the default", unknown keys (newer clients' loss_fn, kl_penalty_*...)
// ignored. resolveRlConfig turns it into the fully-defaulted settings the step uses.
import { z } from "zod";
import type { ModelTrainingDefaults } from "../model-defaults";

export const IMPORTANCE_SAMPLING_LEVELS = ["token", "sequence", "average", "geometric_average"] as const;
export type ImportanceSamplingLevel = (typeof IMPORTANCE_SAMPLING_LEVELS)[number];

const finite = z.number().refine(Number.isFinite, "must be a finite number");

export const experimentalConfigSchema = z.looseObject({
  advantage_balance: finite.min(-1).max(1).nullish(),
  epsilon: finite.min(0).nullish(),
  epsilon_high: finite.min(0).nullish(),
  importance_sampling_level: z.enum(IMPORTANCE_SAMPLING_LEVELS).nullish(),
  /** ART's name for the spec's xmodel_k2_tau. */
  kimi_k2_tau: finite.nullish(),
  xmodel_k2_tau: finite.nullish(),
  learning_rate: finite.positive().nullish(),
  mask_prob_ratio: z.boolean().nullish(),
  max_negative_advantage_importance_sampling_weight: finite.min(0).nullish(),
  ppo: z.boolean().nullish(),
  precalculate_logprobs: z.boolean().nullish(),
  scale_rewards: z.boolean().nullish(),
}).refine((c) => c.kimi_k2_tau == null || c.xmodel_k2_tau == null || c.kimi_k2_tau === c.xmodel_k2_tau, {
  message: "kimi_k2_tau and xmodel_k2_tau are one setting: give one, or the same value for both",
  path: ["xmodel_k2_tau"],
});
export type ExperimentalConfig = z.infer<typeof experimentalConfigSchema>;

export interface RlConfig {
  advantageBalance: number;
  scaleRewards: boolean;
  importanceSamplingLevel: ImportanceSamplingLevel;
  ppo: boolean;
  /** Clip range of the ratio: [1 − epsilon, 1 + epsilonHigh]. */
  epsilon: number;
  epsilonHigh: number;
  /** ρ ← min(ρ, M) before the loss; null = off. */
  maxNegativeAdvantageIsWeight: number | null;
  maskProbRatio: boolean;
  /** A ← A − τ·sg(Δ); 0 = off. */
  tau: number;
  precalculateLogprobs: boolean;
  learningRate: number;
}

export function resolveRlConfig(config: ExperimentalConfig | null | undefined, defaults: ModelTrainingDefaults): RlConfig {
  const c = config ?? {};
  const ppo = c.ppo ?? false;
  // PPO-clip keeps the classic symmetric ±0.2; CISPO clips its weight to [0, 5] (ε 1, ε_high 4).
  const epsilon = c.epsilon ?? (ppo ? 0.2 : 1.0);
  return {
    advantageBalance: c.advantage_balance ?? 0,
    scaleRewards: c.scale_rewards ?? true,
    importanceSamplingLevel: c.importance_sampling_level ?? "token",
    ppo,
    epsilon,
    epsilonHigh: c.epsilon_high ?? (ppo ? epsilon : 4.0),
    // ART tests the weight for truthiness: 0 switches it off rather than zeroing every ratio.
    maxNegativeAdvantageIsWeight: c.max_negative_advantage_importance_sampling_weight || null,
    maskProbRatio: c.mask_prob_ratio ?? false,
    tau: c.kimi_k2_tau ?? c.xmodel_k2_tau ?? 0,
    precalculateLogprobs: c.precalculate_logprobs ?? false,
    learningRate: c.learning_rate ?? defaults.defaultRlLearningRate,
  };
}
