// The RL loss settings as they cross to other trainers (a remote worker's inputs, `rl.loss`, and the
// loss fixture both trainers reproduce): resolved values under experimental_config's snake_case
// names, nothing left to default. kimi_k2_tau 0 and a null weight cap mean "off", as in LossSettings.
import type { ImportanceSamplingLevel } from "./experimental-config";
import type { LossSettings } from "./policy-loss";

export interface WireLossSettings {
  ppo: boolean;
  epsilon: number;
  epsilon_high: number;
  importance_sampling_level: ImportanceSamplingLevel;
  max_negative_advantage_importance_sampling_weight: number | null;
  mask_prob_ratio: boolean;
  kimi_k2_tau: number;
}

export function toWireLossSettings(s: LossSettings): WireLossSettings {
  return {
    ppo: s.ppo,
    epsilon: s.epsilon,
    epsilon_high: s.epsilonHigh,
    importance_sampling_level: s.importanceSamplingLevel,
    max_negative_advantage_importance_sampling_weight: s.maxNegativeAdvantageIsWeight,
    mask_prob_ratio: s.maskProbRatio,
    kimi_k2_tau: s.tau,
  };
}

export function fromWireLossSettings(w: WireLossSettings): LossSettings {
  return {
    ppo: w.ppo,
    epsilon: w.epsilon,
    epsilonHigh: w.epsilon_high,
    importanceSamplingLevel: w.importance_sampling_level,
    maxNegativeAdvantageIsWeight: w.max_negative_advantage_importance_sampling_weight,
    maskProbRatio: w.mask_prob_ratio,
    tau: w.kimi_k2_tau,
  };
}
