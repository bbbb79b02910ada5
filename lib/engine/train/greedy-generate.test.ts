import { describe, expect, it } from "vitest";
import { LlamaModel } from "../model/llama-model";
import { randomWeights, TINY_CONFIG } from "../test-support/tiny-model";
import { greedyGenerate } from "./greedy-generate";

describe("greedyGenerate", () => {
  const config = { ...TINY_CONFIG, vocabSize: 24, contextLength: 20 };
  const model = new LlamaModel(config, { weights: randomWeights(config, 2) });
  const prompts = [[1, 2, 3], [4], [5, 6, 7, 8, 9, 10]];

  it("decodes each prompt in a padded batch as it would alone", () => {
    const options = { maxNewTokens: 8, stopId: 23 };
    const together = greedyGenerate(model, prompts, options);
    const alone = prompts.map((p) => greedyGenerate(model, [p], options)[0]);
    expect(together).toEqual(alone);
    expect(together.map((g) => g.tokens.length > 0)).toEqual([true, true, true]);
  });

  it("ends a sequence at the stop token (not emitted) or at a limit", () => {
    const [free] = greedyGenerate(model, [prompts[0]], { maxNewTokens: 5, stopId: -1 });
    expect(free).toEqual({ tokens: free.tokens, stopped: false });
    expect(free.tokens).toHaveLength(5);
    const [stopped] = greedyGenerate(model, [prompts[0]], { maxNewTokens: 5, stopId: free.tokens[2] });
    expect(stopped).toEqual({ tokens: free.tokens.slice(0, free.tokens.indexOf(free.tokens[2])), stopped: true });
    const [full] = greedyGenerate(model, [Array(20).fill(1)], { maxNewTokens: 5, stopId: -1 });
    expect(full).toEqual({ tokens: [], stopped: false });
  });
});
