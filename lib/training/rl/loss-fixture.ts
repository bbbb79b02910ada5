// "One loss, two trainers": tests/fixtures/rl-loss-fixture.json holds per-token inputs and the loss
// and ∂L/∂log π that Anneal's trainer computes from them (policyLoss for RL, the weighted
// cross-entropy for SFT). scripts/make-rl-loss-fixture.ts writes it; a unit test recomputes every
// case here, and the Python worker's test (workers/python/tests/test_loss_fixture.py) must match it.
// Arrays are flat over a micro-batch's positions; null in old_logprobs = the sampler's is unknown.
import { tokenCrossEntropy } from "@/lib/engine/model/cross-entropy";
import { policyLoss } from "./policy-loss";
import { fromWireLossSettings, type WireLossSettings } from "./wire-loss-settings";

export interface RlLossInputs {
  kind: "rl";
  config: WireLossSettings;
  mask: number[];
  old_logprobs: (number | null)[];
  advantages: number[];
  weights: number[];
  segments: number[];
  num_trajectories: number;
  logprobs: number[];
}

export interface SftLossInputs {
  kind: "sft";
  weights: number[];
  logprobs: number[];
}

export interface LossOutputs {
  loss: number;
  /** ∂L/∂logprobs, one per position. */
  grad: number[];
}

export type LossFixtureCase = { name: string; inputs: RlLossInputs | SftLossInputs; expected: LossOutputs };

export function lossOutputs(inputs: RlLossInputs | SftLossInputs): LossOutputs {
  if (inputs.kind === "sft") {
    const grad = new Float32Array(inputs.logprobs.length);
    const loss = tokenCrossEntropy(Float32Array.from(inputs.logprobs), Float32Array.from(inputs.weights), grad);
    return { loss, grad: [...grad] };
  }
  const batch = {
    mask: Float32Array.from(inputs.mask),
    oldLogprobs: Float32Array.from(inputs.old_logprobs, (v) => v ?? NaN),
    advantages: Float32Array.from(inputs.advantages),
    weights: Float32Array.from(inputs.weights),
    segments: Int32Array.from(inputs.segments),
    numTrajectories: inputs.num_trajectories,
  };
  // Float64 gradients: PPO's sequence-level terms add two parts that may nearly cancel.
  const grad = new Float64Array(inputs.logprobs.length);
  const { loss } = policyLoss(inputs.logprobs, inputs.logprobs, batch, fromWireLossSettings(inputs.config), grad);
  return { loss, grad: [...grad] };
}
