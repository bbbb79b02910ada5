// Learning smoke test: RL on a programmatic reward ("answer with an even number") raises the mean
// reward of fresh samples. The base is a tiny model taught by SFT to answer with one digit of
// either parity, so about half its samples are rewarded before RL.
import { describe, expect, it } from "vitest";
import { AdamW } from "@/lib/engine/model/adamw";
import type { LlamaConfig } from "@/lib/engine/model/config";
import { LlamaModel } from "@/lib/engine/model/llama-model";
import { Prng } from "@/lib/engine/prng";
import { encodeChat, type ChatMessage } from "@/lib/engine/tokenizer/chatml";
import { sftBatches, sftSteps } from "../sft/sft-step";
import { byteTokenizer } from "../test-support/byte-tokenizer";
import { trainingVocabularyOf } from "../test-support/chat-format";
import { sampleChoices } from "../test-support/sample-choices";
import { parseTrajectoryGroups } from "../trajectories/parse-trajectory-groups";
import type { Choice } from "../trajectories/schemas";
import { resolveRlConfig } from "./experimental-config";
import { prepareRlJob } from "./prepare-rl-job";
import { rlSteps } from "./rl-step";

const tokenizer = byteTokenizer();
const vocabulary = trainingVocabularyOf(tokenizer);
const config: LlamaConfig = { vocabSize: tokenizer.vocabSize, dim: 32, nLayers: 1, nHeads: 2, nKvHeads: 1, ffnDim: 64, contextLength: 48, ropeBase: 10000, normEps: 1e-5 };
const prompt: ChatMessage[] = [{ role: "user", content: "Number?" }];
const reward = (c: Choice) => (/^\d+$/.test(c.message.content ?? "") && Number(c.message.content) % 2 === 0 ? 1 : 0);
const meanReward = (choices: Choice[]) => choices.reduce((a, c) => a + reward(c), 0) / choices.length;

describe("RL learning", () => {
  it("raises the mean reward of fresh samples on 'answer with an even number'", () => {
    const rng = new Prng(11);
    const model = new LlamaModel(config, { seed: 5 });
    const digits = Array.from({ length: 256 }, () => [encodeChat(tokenizer, [...prompt, { role: "assistant", content: String(rng.int(0, 9)) }])]);
    for (const _ of sftSteps(model, new AdamW(model.params), vocabulary.padId, digits, sftBatches(digits.length, { batchSize: 16, learningRates: Array(16).fill(1e-2) })));

    const sample = (n: number) => sampleChoices(model, tokenizer, prompt, n, { maxTokens: 3, temperature: 1, rng });
    const before = meanReward(sample(64));
    const rl = resolveRlConfig({ learning_rate: 3e-3 }, { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 1e-4 });
    const optimizer = new AdamW(model.params, { weightDecay: 0 });
    for (let job = 0; job < 20; job++) {
      // As a client sends them: JSON, through the same parsing a stored job goes through.
      const groups = parseTrajectoryGroups(JSON.parse(JSON.stringify(Array.from({ length: 4 }, () => ({
        trajectories: sample(8).map((choice) => ({ messages_and_choices: [...prompt, choice], reward: reward(choice) })),
      })))));
      const prepared = prepareRlJob({ groups, vocabulary, config: rl, limits: { rows: 32, tokens: Infinity }, contextLength: config.contextLength });
      for (const _ of rlSteps(model, optimizer, prepared, rl));
    }
    const after = meanReward(sample(64));
    console.info(`RL smoke: mean reward ${before.toFixed(3)} → ${after.toFixed(3)}`);
    expect(before).toBeGreaterThan(0.2);
    expect(before).toBeLessThan(0.8);
    expect(after).toBeGreaterThan(before + 0.4);
  });
});
