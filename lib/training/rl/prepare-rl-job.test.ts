import { describe, expect, it } from "vitest";
import { AdamW } from "@/lib/engine/model/adamw";
import { LlamaModel } from "@/lib/engine/model/llama-model";
import { byteTokenizer } from "../test-support/byte-tokenizer";
import { trainingVocabularyOf } from "../test-support/chat-format";
import { parseTrajectoryGroups } from "../trajectories/parse-trajectory-groups";
import { resolveRlConfig } from "./experimental-config";
import { prepareRlJob } from "./prepare-rl-job";
import { rlSteps } from "./rl-step";

const tok = byteTokenizer();
const defaults = { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 1e-4 };
const prompt = { role: "user", content: "Hi" };
/** A Choice of `reply` (one byte = one token), with sampler logprobs unless `logprobs` is false. */
const choice = (reply: string, logprobs = true) => ({
  finish_reason: "stop", index: 0, message: { role: "assistant", content: reply },
  logprobs: logprobs ? { content: tok.encode(reply).map((id) => ({ token: `token_id:${id}`, logprob: -1 })) } : null,
});
const trajectory = (reply: string, reward: number, logprobs = true) => ({ messages_and_choices: [prompt, choice(reply, logprobs)], reward });
const prepare = (groups: object[], config = resolveRlConfig(null, defaults), rows = 8) =>
  prepareRlJob({ groups: parseTrajectoryGroups(groups), vocabulary: trainingVocabularyOf(tok), config, limits: { rows, tokens: Infinity }, contextLength: 64 });

describe("prepareRlJob", () => {
  it("drops equal-reward groups and lone trajectories: nothing to train, stats still reported", () => {
    const job = prepare([{ trajectories: [trajectory("a", 0.5), trajectory("b", 0.5)] }, { trajectories: [trajectory("c", 1)] }]);
    expect(job.batches).toEqual([]);
    expect(job.stats).toEqual({ reward: 2 / 3, rewardStdDev: 0, numGroupsSubmitted: 2, numGroupsTrainable: 0, numTrajectories: 0 });
  });

  it("weights a long and a short trajectory so each counts equally", () => {
    const job = prepare([{ trajectories: [trajectory("x".repeat(12), 1), trajectory("yyy", 0)] }]);
    const [b] = job.batches;
    const sum = (j: number, f: (t: number) => number) => b.segments.reduce((a, s, t) => a + (s === j && b.mask[t] ? f(t) : 0), 0);
    expect([sum(0, () => 1), sum(1, () => 1)]).toEqual([12, 3]);
    expect(sum(0, (t) => b.weights[t])).toBeCloseTo(sum(1, (t) => b.weights[t]), 5); // 12 × 15/24 = 3 × 15/6
    expect(sum(0, (t) => b.weights[t]) + sum(1, (t) => b.weights[t])).toBeCloseTo(15, 5); // mean weight 1
    expect(sum(0, (t) => b.advantages[t]) / 12).toBeCloseTo(0.5 / (0.5 + 1e-6), 5); // rewards 1, 0: mean 0.5, std 0.5
    expect(job.stats).toMatchObject({ reward: 0.5, rewardStdDev: 0.5, numGroupsTrainable: 1, numTrajectories: 2 });
  });

  it("aligns targets and sampler logprobs, keeps a trajectory's histories in one micro-batch", () => {
    const withHistory = { ...trajectory("ab", 1), additional_histories: [{ messages_and_choices: [prompt, choice("cd")] }] };
    const job = prepare([{ trajectories: [withHistory, trajectory("e", 0), trajectory("f", 0)] }], resolveRlConfig(null, defaults), 2);
    expect(job.batches.map((b) => [b.batchSize, b.numTrajectories])).toEqual([[2, 1], [2, 2]]);
    const b = job.batches[0];
    const trained = [...b.targets].filter((_, t) => b.mask[t]);
    expect(tok.decode(trained)).toBe("abcd");
    expect([...b.oldLogprobs].filter((_, t) => b.mask[t])).toEqual([-1, -1, -1, -1]);
  });
});

describe("rlSteps", () => {
  const model = () => new LlamaModel({ vocabSize: tok.vocabSize, dim: 16, nLayers: 1, nHeads: 2, nKvHeads: 1, ffnDim: 32, contextLength: 64, ropeBase: 10000, normEps: 1e-5 }, { seed: 1 });

  it("reports numbers-only gradient_step metrics; missing logprobs give ratio 1", () => {
    const config = resolveRlConfig({ ppo: true }, defaults);
    const job = prepare([{ trajectories: [trajectory("12", 1, false), trajectory("3", 0, false)] }], config);
    const [metrics, ...rest] = [...rlSteps(model(), new AdamW(model().params), job, config)];
    expect(rest).toEqual([]);
    expect(Object.keys(metrics).sort()).toEqual(["entropy", "grad_norm", "learning_rate", "loss", "mean_ratio", "num_groups_submitted", "num_groups_trainable",
      "num_trainable_tokens", "num_trajectories", "policy_loss", "reward", "reward_std_dev", "step"]);
    expect(Object.values(metrics).every(Number.isFinite)).toBe(true);
    // "12" and "3", each with the end of turn the template writes after a finished reply.
    expect(metrics).toMatchObject({ step: 1, learning_rate: 1e-4, num_trajectories: 2, num_trainable_tokens: 5, mean_ratio: 1, reward: 0.5 });
  });

  it("precalculate_logprobs replaces the sampler's π_old by the current policy's", () => {
    const run = (precalculate_logprobs: boolean) => {
      const config = resolveRlConfig({ precalculate_logprobs, learning_rate: 1e-3 }, defaults);
      const m = model();
      return [...rlSteps(m, new AdamW(m.params), prepare([{ trajectories: [trajectory("12", 1), trajectory("3", 0)] }], config), config)][0];
    };
    expect(run(true).mean_ratio).toBeCloseTo(1, 5);
    expect(run(false).mean_ratio).not.toBeCloseTo(1, 1); // sampler logprobs of −1 vs a random model's ≈ −5.6
  });
});
