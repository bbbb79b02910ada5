// Writes tests/fixtures/rl-loss-fixture.json: seeded per-token inputs for every mode of the RL loss
// (docs/rl-loss.md) and for SFT's weighted cross-entropy, with the loss and ∂L/∂log π Anneal's
// trainer computes (lib/training/rl/loss-fixture.ts). Run again after changing the loss:
//   npx tsx scripts/make-rl-loss-fixture.ts
// Inputs are float32 values, so a float32 trainer and a float64 one read the same numbers.
import fs from "node:fs";
import path from "node:path";
import { Prng } from "@/lib/engine/prng";
import { resolveRlConfig, type ExperimentalConfig } from "@/lib/training/rl/experimental-config";
import { lossOutputs, type LossFixtureCase, type RlLossInputs, type SftLossInputs } from "@/lib/training/rl/loss-fixture";
import { toWireLossSettings } from "@/lib/training/rl/wire-loss-settings";

const OUT = path.join(import.meta.dirname, "..", "tests", "fixtures", "rl-loss-fixture.json");
const ROW = 9; // positions per row; each trajectory is one row: prompt, trainable reply, padding

interface RlCase {
  name: string;
  config: ExperimentalConfig;
  trajectories: number;
  /** Spread of log π_θ − log π_old (how far ratios stray from 1, across the clip ranges). */
  drift: number;
  /** Share of trainable positions whose sampler log-prob is unknown. */
  missing: number;
}

const RL_CASES: RlCase[] = [
  { name: "cispo defaults", config: {}, trajectories: 3, drift: 1.2, missing: 0 },
  { name: "cispo epsilon 0.2/0.3 with mask_prob_ratio", config: { epsilon: 0.2, epsilon_high: 0.3, mask_prob_ratio: true }, trajectories: 3, drift: 0.5, missing: 0 },
  { name: "cispo defaults with mask_prob_ratio", config: { mask_prob_ratio: true }, trajectories: 3, drift: 2, missing: 0 },
  { name: "cispo sequence", config: { importance_sampling_level: "sequence" }, trajectories: 3, drift: 1.2, missing: 0 },
  { name: "cispo geometric_average", config: { importance_sampling_level: "geometric_average" }, trajectories: 2, drift: 1.2, missing: 0 },
  { name: "cispo kimi_k2_tau", config: { kimi_k2_tau: 0.5 }, trajectories: 3, drift: 0.6, missing: 0.2 },
  { name: "ppo token", config: { ppo: true }, trajectories: 3, drift: 0.3, missing: 0 },
  { name: "ppo sequence", config: { ppo: true, importance_sampling_level: "sequence" }, trajectories: 4, drift: 0.3, missing: 0 },
  { name: "ppo average", config: { ppo: true, importance_sampling_level: "average" }, trajectories: 3, drift: 0.3, missing: 0 },
  { name: "ppo geometric_average", config: { ppo: true, importance_sampling_level: "geometric_average" }, trajectories: 3, drift: 0.3, missing: 0 },
  { name: "ppo max_negative_advantage_importance_sampling_weight", config: { ppo: true, max_negative_advantage_importance_sampling_weight: 1.1 }, trajectories: 3, drift: 0.4, missing: 0 },
  { name: "ppo mask_prob_ratio epsilon_high 0.3", config: { ppo: true, epsilon_high: 0.3, mask_prob_ratio: true }, trajectories: 3, drift: 0.4, missing: 0 },
  { name: "ppo kimi_k2_tau", config: { ppo: true, kimi_k2_tau: 0.3 }, trajectories: 3, drift: 0.3, missing: 0 },
  { name: "ppo sequence with missing old logprobs", config: { ppo: true, importance_sampling_level: "sequence" }, trajectories: 3, drift: 0.3, missing: 0.4 },
  { name: "ppo average, no old logprobs at all", config: { ppo: true, importance_sampling_level: "average" }, trajectories: 2, drift: 0.3, missing: 1 },
];

const f32 = Math.fround;

function rlInputs(c: RlCase, prng: Prng): RlLossInputs {
  const out: Omit<RlLossInputs, "kind" | "config" | "num_trajectories"> = { mask: [], old_logprobs: [], advantages: [], weights: [], segments: [], logprobs: [] };
  for (let j = 0; j < c.trajectories; j++) {
    const prompt = prng.int(1, 3), reply = prng.int(2, ROW - prompt - 1);
    // Either sign, never 0 (zero-advantage trajectories are dropped before the loss).
    const advantage = f32((prng.next() < 0.5 ? -1 : 1) * (0.2 + 1.5 * prng.next()));
    const weight = f32(0.5 + prng.next());
    for (let i = 0; i < ROW; i++) {
      const trainable = i >= prompt && i < prompt + reply;
      const padding = i >= prompt + reply;
      const logprob = f32(-0.05 - 4 * prng.next());
      out.logprobs.push(i === 0 ? 0 : logprob);
      out.mask.push(trainable ? 1 : 0);
      out.segments.push(padding ? -1 : j);
      out.advantages.push(padding ? 0 : advantage);
      out.weights.push(padding ? 0 : weight);
      const known = trainable && prng.next() >= c.missing;
      out.old_logprobs.push(known ? f32(logprob - c.drift * prng.normal()) : null);
    }
  }
  const config = toWireLossSettings(resolveRlConfig(c.config, { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 1e-4 }));
  return { kind: "rl", config, num_trajectories: c.trajectories, ...out };
}

function sftInputs(rows: number, prng: Prng, trainable = true): SftLossInputs {
  const weights: number[] = [], logprobs: number[] = [];
  for (let r = 0; r < rows; r++) {
    const prompt = prng.int(1, 4);
    for (let i = 0; i < ROW; i++) {
      weights.push(trainable && i >= prompt && prng.next() < 0.8 ? 1 : 0);
      logprobs.push(i === 0 ? 0 : f32(-0.01 - 6 * prng.next()));
    }
  }
  return { kind: "sft", weights, logprobs };
}

function fixture(): { cases: LossFixtureCase[] } {
  const named: { name: string; inputs: RlLossInputs | SftLossInputs }[] = [
    ...RL_CASES.map((c, i) => ({ name: c.name, inputs: rlInputs(c, new Prng(28, i)) })),
    { name: "sft weighted cross-entropy", inputs: sftInputs(3, new Prng(28, 100)) },
    { name: "sft with no trainable token", inputs: sftInputs(1, new Prng(28, 101), false) },
  ];
  return { cases: named.map(({ name, inputs }) => ({ name, inputs, expected: lossOutputs(inputs) })) };
}

fs.writeFileSync(OUT, `${JSON.stringify(fixture())}\n`);
console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
