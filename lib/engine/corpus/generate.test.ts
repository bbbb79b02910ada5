import { describe, expect, it } from "vitest";
import { renderChat } from "../tokenizer/chatml";
import { tinyTokenizer } from "../test-support/tiny-model";
import { withAnswer } from "./example";
import { FAMILIES, sampleExamples, tokenizerTrainingTexts } from "./generate";

const prompts = (xs: { messages: unknown }[]) => xs.map((x) => JSON.stringify(x.messages));

describe("task corpus", () => {
  const train = sampleExamples({ seed: 1, split: "train", count: 2000 });
  const heldout = sampleExamples({ seed: 1, split: "heldout", count: 300 });

  it("is deterministic per seed and differs across seeds", () => {
    expect(prompts(sampleExamples({ seed: 1, split: "train", count: 50 }))).toEqual(prompts(train.slice(0, 50)));
    expect(prompts(sampleExamples({ seed: 2, split: "train", count: 50 }))).not.toEqual(prompts(train.slice(0, 50)));
  });

  it("covers every family", () => {
    expect(new Set(train.map((e) => e.family))).toEqual(new Set(Object.keys(FAMILIES)));
  });

  it("keeps held-out prompts out of the training split", () => {
    const trainPrompts = new Set(prompts(train));
    expect(prompts(heldout).some((p) => trainPrompts.has(p))).toBe(false);
  });

  it("accepts every reference answer and rejects other examples' answers", () => {
    const all = [...train, ...heldout];
    for (const e of all) {
      const wrong = all.find((f) => f.family === e.family && f.answer !== e.answer)!;
      expect(e.check(e.answer), JSON.stringify(e.messages)).toBe(true);
      expect(e.check(wrong.answer), `${JSON.stringify(e.messages)} ← ${wrong.answer}`).toBe(false);
    }
  });

  it("checks JSON by value and arithmetic exactly", () => {
    const json = sampleExamples({ seed: 3, split: "train", count: 200, families: ["json"] }).find((e) => e.answer.startsWith("{"))!;
    const obj = JSON.parse(json.answer) as Record<string, unknown>;
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(obj).reverse()), null, 1);
    expect(json.check(reordered)).toBe(true);
    const sum = sampleExamples({ seed: 3, split: "train", count: 1, families: ["arithmetic"] })[0];
    expect(sum.check(` ${sum.answer}.\n`)).toBe(true);
    expect(sum.check(String(Number(sum.answer) + 1))).toBe(false);
  });

  it("keeps whole conversations well inside a 256-token context", () => {
    const tok = tinyTokenizer();
    const lengths = train.map((e) => tok.encode(renderChat(withAnswer(e)), { parseSpecials: true }).length);
    expect(Math.max(...lengths)).toBeLessThan(96);
  });

  it("gives tokenizer training texts in ChatML", () => {
    const texts = tokenizerTrainingTexts(10);
    expect(texts).toHaveLength(10);
    expect(texts.every((t) => t.startsWith("<|im_start|>") && t.includes("<|im_start|>assistant\n"))).toBe(true);
  });
});
