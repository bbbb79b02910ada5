// Finite-difference checks of the whole RL loss w.r.t. every weight of a tiny model, in every mode.
// The analytic gradient is policyLoss's ∂L/∂log π through the float32 model's backward; the
// numeric one differentiates the same loss over the float64 reference forward, with the
// stop-gradient terms frozen at the unperturbed log-probs (that is what sg means).
import { describe, expect, it } from "vitest";
import type { LlamaConfig } from "@/lib/engine/model/config";
import { gradientError } from "@/lib/engine/model/gradcheck";
import { LlamaModel } from "@/lib/engine/model/llama-model";
import { logSoftmax64, referenceForward } from "@/lib/engine/model/reference";
import { Prng } from "@/lib/engine/prng";
import type { RlMicroBatch } from "../trajectories/micro-batches";
import { resolveRlConfig, type ExperimentalConfig } from "./experimental-config";
import { policyLoss } from "./policy-loss";
import { balanceAdvantages } from "./token-weights";

const tiny: LlamaConfig = { vocabSize: 11, dim: 8, nLayers: 2, nHeads: 2, nKvHeads: 1, ffnDim: 12, contextLength: 8, ropeBase: 10000, normEps: 1e-5 };
const [B, T] = [3, 6];
const tokens = Int32Array.from([1, 7, 3, 3, 10, 0, 2, 9, 4, 6, 5, 8, 4, 4, 1, 0, 9, 2]);
const targets = Int32Array.from([7, 3, 3, 10, 0, -1, 9, 4, 6, 5, 8, -1, 4, 1, 0, 9, 2, -1]);
// Rows 0 and 1 are two histories of trajectory 0, row 2 is trajectory 1.
const segments = Int32Array.from([0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, -1, 1, 1, 1, 1, 1, -1]);
const mask = Float32Array.from([0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0]);
// Sampler drift per trainable token (log π_θ − log π_old), NaN = no sampler logprob: spread so that
// ratios land inside and on both sides of every clip and mask range, none near a boundary.
const drift = [0, 0, -0.5, 0.12, 0.9, 0, 0, NaN, -0.07, 1.6, 0.3, 0, 0, -0.3, 0.05, NaN, -1.1, 0];

function roughModel(): LlamaModel {
  const model = new LlamaModel(tiny, { seed: 3 });
  const prng = new Prng(4);
  for (const slot of model.params.slots) {
    const w = model.params.value(slot.name);
    for (let i = 0; i < w.length; i++) w[i] = slot.shape.length === 1 ? 1 + 0.3 * prng.normal() : 0.5 * prng.normal();
  }
  return model;
}

function referenceLogprobs(w: Record<string, Float64Array>): Float64Array {
  const out = new Float64Array(B * T);
  for (let s = 0; s < B; s++) {
    const logp = logSoftmax64(referenceForward(tiny, w, tokens.subarray(s * T, (s + 1) * T)), tiny.vocabSize);
    for (let t = 0; t < T; t++) if (targets[s * T + t] >= 0) out[s * T + t] = logp[t * tiny.vocabSize + targets[s * T + t]];
  }
  return out;
}

function batchFor(logprobs: ArrayLike<number>, advantages: [number, number]): RlMicroBatch {
  const oldLogprobs = Float32Array.from(drift, (d, t) => logprobs[t] - d);
  return {
    tokens, targets, batchSize: B, seqLen: T, mask, oldLogprobs, segments, numTrajectories: 2, rowLengths: Array(B).fill(T),
    advantages: Float32Array.from(segments, (j) => (j >= 0 ? advantages[j] : 0)),
    weights: Float32Array.from(segments, (j) => (j === 0 ? 0.75 : j === 1 ? 1.5 : 0)),
  };
}

const cases: [string, ExperimentalConfig, number?][] = [
  ["PPO, token", { ppo: true }],
  // At ε = 0.2 both trajectories' sequence ratios are clipped flat; 0.5 keeps one inside the range.
  ["PPO, sequence", { ppo: true, importance_sampling_level: "sequence", epsilon: 0.5 }],
  ["PPO, average", { ppo: true, importance_sampling_level: "average" }],
  ["PPO, geometric_average", { ppo: true, importance_sampling_level: "geometric_average" }],
  ["PPO, asymmetric ε", { ppo: true, epsilon: 0.3, epsilon_high: 0.5 }],
  ["CISPO, token", {}],
  ["CISPO, sequence", { importance_sampling_level: "sequence" }],
  ["CISPO, average", { importance_sampling_level: "average" }],
  ["CISPO, geometric_average", { importance_sampling_level: "geometric_average" }],
  ["PPO, mask_prob_ratio", { ppo: true, mask_prob_ratio: true }],
  ["PPO, mask_prob_ratio, average", { ppo: true, mask_prob_ratio: true, importance_sampling_level: "average" }],
  ["CISPO, mask_prob_ratio, ε = 1", { mask_prob_ratio: true }],
  ["CISPO, mask_prob_ratio, ε < 1", { mask_prob_ratio: true, epsilon: 0.4, epsilon_high: 0.5 }],
  ["PPO, max negative-advantage IS weight", { ppo: true, max_negative_advantage_importance_sampling_weight: 1.5, epsilon_high: 2 }],
  ["PPO, τ", { ppo: true, kimi_k2_tau: 0.7 }],
  ["CISPO, τ (xmodel_k2_tau)", { xmodel_k2_tau: 0.7 }],
  ["PPO, advantage_balance > 0", { ppo: true, advantage_balance: 0.5 }, 0.5],
  ["CISPO, advantage_balance < 0", { advantage_balance: -0.5 }, -0.5],
];

describe("RL loss gradient (finite differences through a tiny model)", () => {
  it.each(cases)("%s", (_, experimental, balance = 0) => {
    const settings = resolveRlConfig(experimental, { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 1e-4 });
    // Trajectory 0 is long (8 tokens), trajectory 1 short (4): balance the group's ±1 advantages.
    const advantages = balanceAdvantages([{ trainableTokens: 8, advantage: 1.3 }, { trainableTokens: 4, advantage: -0.9 }], [0.75, 1.5], balance) as [number, number];
    const model = roughModel();
    const { logprobs } = model.forward({ tokens, targets, batchSize: B, seqLen: T });
    const batch = batchFor(logprobs, advantages);
    const dLogprobs = new Float32Array(B * T);
    policyLoss(logprobs, logprobs, batch, settings, dLogprobs);
    model.params.zeroGrads();
    model.backward(dLogprobs);

    const w64 = Object.fromEntries(Object.entries(model.params.weights()).map(([n, v]) => [n, Float64Array.from(v)]));
    const frozen = referenceLogprobs(w64);
    const loss = () => policyLoss(referenceLogprobs(w64), frozen, batch, settings).loss;
    let worst = 0;
    for (const slot of model.params.slots) {
      // ~10 weights per tensor, spread over it, keep 18 modes within seconds on a shared machine.
      const stride = Math.ceil(slot.size / 10);
      const indices = Array.from({ length: Math.ceil(slot.size / stride) }, (_, k) => k * stride);
      const err = gradientError(loss, w64[slot.name], model.params.grad(slot.name), indices);
      expect(err, slot.name).toBeLessThan(2e-3);
      worst = Math.max(worst, err);
    }
    console.info(`gradcheck ${_}: max error ${worst.toExponential(2)}`);
  });
});
