import { describe, expect, it } from "vitest";
import { IM_END } from "@/lib/engine/tokenizer/chatml";
import { ValidationError } from "@/lib/http/errors";
import { byteTokenizer } from "../test-support/byte-tokenizer";
import { planSft, sftConfigSchema } from "./sft-config";
import { sftExampleSchema, tokenizeSftExample } from "./tokenize-sft-example";

const tok = byteTokenizer();
const defaults = { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 2e-4 };
const example = sftExampleSchema.parse({
  messages: [{ role: "user", content: "a" }, { role: "assistant", content: "b" }, { role: "user", content: "c" }, { role: "assistant", content: "d" }],
});
const trained = (turns: "all" | "last") => {
  const { ids, assistantMask } = tokenizeSftExample(tok, example, turns, 64, 0);
  return tok.decode(ids.filter((_, i) => assistantMask[i]));
};

describe("SFT examples", () => {
  it("trains every assistant turn with its <|im_end|>, or only the last", () => {
    expect(trained("all")).toBe(`b${IM_END}d${IM_END}`);
    expect(trained("last")).toBe(`d${IM_END}`);
  });

  it("needs messages ending with the assistant", () => {
    expect(sftExampleSchema.safeParse({ messages: [] }).success).toBe(false);
    expect(sftExampleSchema.safeParse({ messages: [{ role: "user", content: "a" }] }).success).toBe(false);
  });
});

describe("planSft", () => {
  it("defaults batch 2, the model's SFT rate, all turns", () => {
    expect(planSft(sftConfigSchema.parse({ batch_size: null, learning_rate: null }), defaults, 5)).toEqual({ batchSize: 2, learningRates: [2e-4, 2e-4, 2e-4], assistantTurns: "all" });
    expect(planSft(null, defaults, 5)).toEqual(planSft({ batch_size: "auto" }, defaults, 5));
  });

  it("takes one learning rate per batch and refuses a list of the wrong length", () => {
    expect(planSft({ batch_size: 3, learning_rate: [1e-3, 5e-4] }, defaults, 5).learningRates).toEqual([1e-3, 5e-4]);
    expect(() => planSft({ batch_size: 3, learning_rate: [1e-3] }, defaults, 5)).toThrow(ValidationError);
  });
});
