import { describe, expect, it } from "vitest";
import { experimentalConfigSchema, resolveRlConfig } from "./experimental-config";

const defaults = { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 3e-4 };
// What an Era-A ART client sends: all 11 keys, null for anything unset.
const allNull = {
  advantage_balance: null, epsilon: null, epsilon_high: null, importance_sampling_level: null, kimi_k2_tau: null,
  learning_rate: null, mask_prob_ratio: null, max_negative_advantage_importance_sampling_weight: null, ppo: null,
  precalculate_logprobs: null, scale_rewards: null,
};

describe("experimental_config", () => {
  it("treats null as the default everywhere: CISPO, ε 1, ε_high 4, the model's learning rate", () => {
    const parsed = experimentalConfigSchema.parse(allNull);
    expect(resolveRlConfig(parsed, defaults)).toEqual({
      advantageBalance: 0, scaleRewards: true, importanceSamplingLevel: "token", ppo: false, epsilon: 1, epsilonHigh: 4,
      maxNegativeAdvantageIsWeight: null, maskProbRatio: false, tau: 0, precalculateLogprobs: false, learningRate: 1e-4,
    });
    expect(resolveRlConfig(null, defaults)).toEqual(resolveRlConfig(parsed, defaults));
  });

  it("defaults PPO to ε 0.2 and ε_high = ε, and honours explicit values", () => {
    expect(resolveRlConfig({ ppo: true }, defaults)).toMatchObject({ epsilon: 0.2, epsilonHigh: 0.2 });
    expect(resolveRlConfig({ ppo: true, epsilon: 0.3 }, defaults)).toMatchObject({ epsilon: 0.3, epsilonHigh: 0.3 });
    expect(resolveRlConfig({ epsilon: 0.5, epsilon_high: 0.6, learning_rate: 5e-6 }, defaults)).toMatchObject({ epsilon: 0.5, epsilonHigh: 0.6, learningRate: 5e-6 });
  });

  it("accepts kimi_k2_tau and xmodel_k2_tau as one setting", () => {
    expect(resolveRlConfig(experimentalConfigSchema.parse({ kimi_k2_tau: 0.1 }), defaults).tau).toBe(0.1);
    expect(resolveRlConfig(experimentalConfigSchema.parse({ xmodel_k2_tau: 0.2 }), defaults).tau).toBe(0.2);
    expect(experimentalConfigSchema.safeParse({ kimi_k2_tau: 0.1, xmodel_k2_tau: 0.2 }).success).toBe(false);
  });

  it("ignores unknown keys, switches the max-negative weight off at 0 (as ART), and rejects bad values", () => {
    expect(experimentalConfigSchema.parse({ loss_fn: "cispo", kl_penalty_coef: 0.1 })).toMatchObject({ loss_fn: "cispo" });
    expect(resolveRlConfig({ max_negative_advantage_importance_sampling_weight: 0 }, defaults).maxNegativeAdvantageIsWeight).toBeNull();
    for (const bad of [{ advantage_balance: 1.5 }, { importance_sampling_level: "tokens" }, { learning_rate: 0 }, { epsilon: -0.1 }]) {
      expect(experimentalConfigSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
