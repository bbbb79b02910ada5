// The loss fixture both trainers reproduce still says what Anneal's trainer computes: every case's
// loss and per-token gradient recomputed from policyLoss / the weighted cross-entropy.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { IMPORTANCE_SAMPLING_LEVELS } from "./experimental-config";
import { lossOutputs, type LossFixtureCase } from "./loss-fixture";

const file = path.resolve(import.meta.dirname, "../../../tests/fixtures/rl-loss-fixture.json");
const { cases } = JSON.parse(fs.readFileSync(file, "utf8")) as { cases: LossFixtureCase[] };

/** Equal to 1e-12 of the larger magnitude (the same float64 arithmetic, run again). */
function expectClose(actual: number, expected: number, what: string) {
  expect(Math.abs(actual - expected), what).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
}

describe("rl-loss-fixture.json (npx tsx scripts/make-rl-loss-fixture.ts writes it)", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    const { loss, grad } = lossOutputs(c.inputs);
    expectClose(loss, c.expected.loss, "loss");
    expect(grad).toHaveLength(c.expected.grad.length);
    grad.forEach((g, t) => expectClose(g, c.expected.grad[t], `grad[${t}]`));
  });

  it("covers PPO at each importance-sampling level, CISPO's masking at ε < 1 and ε = 1, the cap, τ, missing π_old, padding and SFT", () => {
    const rl = cases.flatMap((c) => (c.inputs.kind === "rl" ? [c.inputs] : []));
    for (const level of IMPORTANCE_SAMPLING_LEVELS) expect(rl.some((i) => i.config.ppo && i.config.importance_sampling_level === level), level).toBe(true);
    expect(rl.some((i) => !i.config.ppo && i.config.mask_prob_ratio && i.config.epsilon < 1)).toBe(true);
    expect(rl.some((i) => !i.config.ppo && i.config.mask_prob_ratio && i.config.epsilon === 1)).toBe(true);
    expect(rl.some((i) => i.config.max_negative_advantage_importance_sampling_weight !== null)).toBe(true);
    expect(rl.some((i) => i.config.ppo && i.config.kimi_k2_tau !== 0) && rl.some((i) => !i.config.ppo && i.config.kimi_k2_tau !== 0)).toBe(true);
    expect(rl.some((i) => i.old_logprobs.includes(null) && i.segments.includes(-1) && i.num_trajectories > 1)).toBe(true);
    expect(cases.some((c) => c.inputs.kind === "sft")).toBe(true);
  });
});
