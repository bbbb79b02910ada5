// The RL step's loss over one micro-batch and its gradient ∂L/∂log π_θ per position, written out
// by hand (docs/rl-loss.md; the order of operations is ART's loss.py):
//
//   Δ_t = log π_θ(t) − log π_old(t)        π_old missing → sg(log π_θ): Δ = 0, but ∂Δ/∂log π_θ = 1
//   ρ_t by importance_sampling_level       token e^Δ_t · sequence e^{μ_j} (μ_j = mean Δ over the
//                                          trajectory's trainable tokens) · average · geometric
//   ρ_t ← min(ρ_t, M)                      max_negative_advantage_importance_sampling_weight
//   ρ_t ← ρ_t if 1−ε < ρ_t < 1+ε_high else 0   mask_prob_ratio (before the loss's own clip)
//   A_t ← A_t − τ·sg(Δ_t)                  kimi_k2_tau / xmodel_k2_tau
//   PPO:   ℓ_t = −min(ρ_t·A_t, clip(ρ_t, 1−ε, 1+ε_high)·A_t)
//   CISPO: ℓ_t = −sg[clip(ρ_t, 1−ε, 1+ε_high)]·A_t·log π_θ(t)
//   L = Σ_t ℓ_t·w_t·m_t / (Σ_t m_t + 1e-6)
import type { RlMicroBatch } from "../trajectories/micro-batches";
import type { ImportanceSamplingLevel, RlConfig } from "./experimental-config";

export type LossSettings = Pick<RlConfig, "ppo" | "epsilon" | "epsilonHigh" | "importanceSamplingLevel" | "maxNegativeAdvantageIsWeight" | "maskProbRatio" | "tau">;
export type PolicyLossBatch = Pick<RlMicroBatch, "mask" | "oldLogprobs" | "advantages" | "weights" | "segments" | "numTrajectories">;

export interface PolicyLossResult {
  loss: number;
  /** Mean over trainable tokens of ρ at the importance-sampling level, before clamping and
   *  masking: how far the policy has moved from the sampler's. */
  meanRatio: number;
}

/**
 * `logprobs` are the live log π_θ the loss differentiates; `detached` the same values taken as
 * constants by the stop-gradient terms (sg, and a missing π_old). Training passes the same array
 * twice; a finite-difference check keeps `detached` at the unperturbed values, so it measures
 * exactly the gradient written here. `dLogprobs`, when given, receives ∂L/∂logprobs.
 */
export function policyLoss(
  logprobs: ArrayLike<number>, detached: ArrayLike<number>, batch: PolicyLossBatch, s: LossSettings, dLogprobs?: Float32Array | Float64Array,
): PolicyLossResult {
  const { mask, oldLogprobs, advantages, weights, segments } = batch;
  const M = mask.length;
  const delta = new Float64Array(M);
  const deltaSg = new Float64Array(M);
  const count = new Float64Array(batch.numTrajectories);
  const meanDelta = new Float64Array(batch.numTrajectories);
  const meanDeltaSg = new Float64Array(batch.numTrajectories);
  let trainable = 0;
  for (let t = 0; t < M; t++) {
    if (!mask[t]) continue;
    const old = Number.isNaN(oldLogprobs[t]) ? detached[t] : oldLogprobs[t];
    delta[t] = logprobs[t] - old;
    deltaSg[t] = detached[t] - old;
    count[segments[t]]++;
    meanDelta[segments[t]] += delta[t];
    meanDeltaSg[segments[t]] += deltaSg[t];
    trainable++;
  }
  for (let j = 0; j < count.length; j++) {
    meanDelta[j] /= count[j] || 1;
    meanDeltaSg[j] /= count[j] || 1;
  }
  const denominator = trainable + 1e-6;
  const low = 1 - s.epsilon, high = 1 + s.epsilonHigh;
  const clip = (r: number) => Math.min(Math.max(r, low), high);
  dLogprobs?.fill(0);
  const dMeanDelta = new Float64Array(batch.numTrajectories);

  let loss = 0, ratioSum = 0;
  for (let t = 0; t < M; t++) {
    if (!mask[t]) continue;
    const j = segments[t];
    const scale = weights[t] / denominator;
    const advantage = advantages[t] - s.tau * deltaSg[t];
    const live = ratio(s.importanceSamplingLevel, delta[t], meanDelta[j]);
    ratioSum += live.rho;
    if (s.ppo) {
      const r = limitRatio(live, s, low, high);
      const inRange = r.rho >= low && r.rho <= high;
      const unclipped = r.rho * advantage, clipped = clip(r.rho) * advantage;
      loss -= Math.min(unclipped, clipped) * scale;
      // The min takes the unclipped branch, or the clipped one whose slope is 0 outside the range
      // (inside it the two branches are equal with the same slope).
      const dRho = inRange || unclipped < clipped ? -advantage * scale : 0;
      if (dLogprobs) {
        dLogprobs[t] += dRho * r.dDelta;
        dMeanDelta[j] += dRho * r.dMean;
      }
    } else {
      const weight = clip(limitRatio(ratio(s.importanceSamplingLevel, deltaSg[t], meanDeltaSg[j]), s, low, high).rho);
      loss -= weight * advantage * logprobs[t] * scale;
      if (dLogprobs) dLogprobs[t] -= weight * advantage * scale;
    }
  }
  // μ_j = Σ Δ / n_j over trajectory j's trainable tokens: each gets 1/n_j of ∂L/∂μ_j.
  if (dLogprobs && s.ppo) for (let t = 0; t < M; t++) if (mask[t]) dLogprobs[t] += dMeanDelta[segments[t]] / count[segments[t]];
  return { loss, meanRatio: trainable ? ratioSum / trainable : 1 };
}

/** ρ and its partial derivatives w.r.t. the token's Δ and its trajectory's mean Δ (μ). */
interface Ratio {
  rho: number;
  dDelta: number;
  dMean: number;
}

function ratio(level: ImportanceSamplingLevel, delta: number, mean: number): Ratio {
  switch (level) {
    case "token": {
      const rho = Math.exp(delta);
      return { rho, dDelta: rho, dMean: 0 };
    }
    case "sequence": {
      const rho = Math.exp(mean);
      return { rho, dDelta: 0, dMean: rho };
    }
    case "average": {
      const [token, sequence] = [Math.exp(delta), Math.exp(mean)];
      return { rho: (token + sequence) / 2, dDelta: token / 2, dMean: sequence / 2 };
    }
    case "geometric_average": {
      const rho = Math.exp((delta + mean) / 2); // √(e^Δ · e^μ)
      return { rho, dDelta: rho / 2, dMean: rho / 2 };
    }
  }
}

/** max_negative_advantage_importance_sampling_weight, then mask_prob_ratio: both flat (zero
 *  slope) where they act. */
function limitRatio(r: Ratio, s: LossSettings, low: number, high: number): Ratio {
  const cap = s.maxNegativeAdvantageIsWeight;
  if (cap !== null && r.rho > cap) r = { rho: cap, dDelta: 0, dMean: 0 };
  if (s.maskProbRatio && !(r.rho > low && r.rho < high)) r = { rho: 0, dDelta: 0, dMean: 0 };
  return r;
}
