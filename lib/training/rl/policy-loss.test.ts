// Hand-computed values of the per-token loss: one trainable token per trajectory unless stated.
import { describe, expect, it } from "vitest";
import { resolveRlConfig, type ExperimentalConfig } from "./experimental-config";
import { policyLoss, type PolicyLossBatch } from "./policy-loss";

const defaults = { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 1e-4 };
const settings = (c: ExperimentalConfig) => resolveRlConfig(c, defaults);

/** One trainable token: log π_θ = lp, π_old = old (NaN = missing), advantage a, weight w. */
function oneToken(lp: number, old: number, a: number, c: ExperimentalConfig, w = 1) {
  const batch: PolicyLossBatch = {
    mask: Float32Array.of(1), oldLogprobs: Float32Array.of(old), advantages: Float32Array.of(a),
    weights: Float32Array.of(w), segments: Int32Array.of(0), numTrajectories: 1,
  };
  const d = new Float32Array(1);
  const { loss, meanRatio } = policyLoss([lp], [lp], batch, settings(c), d);
  return { loss, meanRatio, grad: d[0] };
}
const D = 1 + 1e-6; // Σ m + 1e-6

describe("policyLoss", () => {
  it("CISPO: −clip(ρ)·A·log π, weight clipped to [0, 5] by default", () => {
    const lp = Math.log(0.5);
    const r = oneToken(lp, lp - Math.log(2), 1.5, {}); // ρ = 2
    expect(r.loss).toBeCloseTo((-2 * 1.5 * lp) / D, 6);
    expect(r.grad).toBeCloseTo((-2 * 1.5) / D, 6);
    expect(r.meanRatio).toBeCloseTo(2, 6);
    expect(oneToken(lp, lp - Math.log(8), 1, {}).grad).toBeCloseTo(-5 / D, 5); // ρ = 8 → 5
  });

  it("PPO: −min(ρA, clip(ρ)A), flat where the clip binds", () => {
    const lp = -1;
    // ρ = 1.5, A = 1: clip to 1.2 binds → loss −1.2, no gradient.
    const up = oneToken(lp, lp - Math.log(1.5), 1, { ppo: true });
    expect(up.loss).toBeCloseTo(-1.2 / D, 6);
    expect(Math.abs(up.grad)).toBe(0);
    // ρ = 1.5, A = −1: the unclipped −1.5 is smaller → loss 1.5, ∂/∂log π = −A·ρ = 1.5.
    const down = oneToken(lp, lp - Math.log(1.5), -1, { ppo: true });
    expect(down.loss).toBeCloseTo(1.5 / D, 6);
    expect(down.grad).toBeCloseTo(1.5 / D, 6);
  });

  it("missing π_old means ratio 1 on-policy, with the gradient of the unclipped term", () => {
    const r = oneToken(-2, NaN, 0.8, { ppo: true });
    expect(r.meanRatio).toBe(1);
    expect(r.loss).toBeCloseTo(-0.8 / D, 6);
    expect(r.grad).toBeCloseTo(-0.8 / D, 6);
  });

  it("mask_prob_ratio before the clip: a masked CISPO token weighs 1 − ε, or 0 at the default ε = 1", () => {
    const lp = -1, old = lp - Math.log(3); // ρ = 3, outside (1 − ε, 1 + ε_high) for ε_high 0.5
    const narrow = oneToken(lp, old, 1, { mask_prob_ratio: true, epsilon: 0.4, epsilon_high: 0.5 });
    expect(narrow.grad).toBeCloseTo(-(1 - 0.4) / D, 6);
    expect(narrow.loss).toBeCloseTo((-(1 - 0.4) * lp) / D, 6);
    const byDefault = oneToken(lp, lp - Math.log(6), 1, { mask_prob_ratio: true }); // ρ = 6 ≥ 1 + 4
    expect(Math.abs(byDefault.grad)).toBe(0);
    // Under PPO a masked ratio is 0: loss −min(0, (1 − ε)·A) and no gradient.
    const ppo = oneToken(lp, old, -1, { ppo: true, mask_prob_ratio: true });
    expect(ppo.loss).toBeCloseTo(0.8 / D, 6);
    expect(Math.abs(ppo.grad)).toBe(0);
  });

  it("caps ρ at the max negative-advantage weight before the loss", () => {
    const lp = -1;
    const r = oneToken(lp, lp - Math.log(3), -1, { ppo: true, max_negative_advantage_importance_sampling_weight: 2 });
    expect(r.loss).toBeCloseTo(2 / D, 6); // −min(2·(−1), 1.2·(−1)) = 2
    expect(Math.abs(r.grad)).toBe(0);
  });

  it("τ subtracts τ·Δ from the advantage without differentiating it", () => {
    const lp = -1, old = -1.5; // Δ = 0.5, ρ = e^0.5 inside CISPO's clip
    const r = oneToken(lp, old, 1, { kimi_k2_tau: 0.4 });
    const weight = Math.exp(0.5), advantage = 1 - 0.4 * 0.5;
    expect(r.loss).toBeCloseTo((-weight * advantage * lp) / D, 6);
    expect(r.grad).toBeCloseTo((-weight * advantage) / D, 6);
  });

  it("sequence level uses exp(mean Δ over the trajectory's tokens); step loss is Σ ℓ·w·m / (Σ m + 1e-6)", () => {
    const batch: PolicyLossBatch = {
      mask: Float32Array.of(1, 1, 0, 1), oldLogprobs: Float32Array.of(-1.2, -0.5, NaN, -2), advantages: Float32Array.of(1, 1, 0, -1),
      weights: Float32Array.of(0.5, 0.5, 0, 2), segments: Int32Array.of(0, 0, 0, 1), numTrajectories: 2,
    };
    const lp = [-1, -0.7, -3, -2];
    const { loss, meanRatio } = policyLoss(lp, lp, batch, settings({ importance_sampling_level: "sequence" }));
    const rho0 = Math.exp((0.2 - 0.2) / 2), rho1 = 1; // trajectory 0: Δ = 0.2, −0.2
    expect(meanRatio).toBeCloseTo((2 * rho0 + rho1) / 3, 6);
    expect(loss).toBeCloseTo((-rho0 * 1 * -1 * 0.5 - rho0 * 1 * -0.7 * 0.5 - rho1 * -1 * -2 * 2) / (3 + 1e-6), 6);
  });
});
