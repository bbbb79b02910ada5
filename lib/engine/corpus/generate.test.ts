import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { TINY_CHAT_2_SETTINGS } from "../pretrain/run-settings";
import { CHATML_SPECIALS, renderChat } from "../tokenizer/chatml";
import { trainBpe } from "../tokenizer/train-bpe";
import { tinyTokenizer } from "../test-support/tiny-model";
import { withAnswer } from "./example";
import type { TaskFamily } from "./example";
import { CURRICULUM, FAMILIES, sampleExamples, tokenizerTrainingTexts } from "./generate";

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

describe("corpus version 2 (the curriculum)", () => {
  const families = Object.keys(FAMILIES) as TaskFamily[];
  const train = sampleExamples({ seed: 1, split: "train", count: 3000, version: 2 });

  it("leaves version 1 exactly as tiny-chat was pretrained on it", () => {
    const xs = [...sampleExamples({ seed: 1, split: "train", count: 500 }), ...sampleExamples({ seed: 1, split: "heldout", count: 100 })];
    const digest = createHash("sha256").update(JSON.stringify(xs.map((x) => [x.family, x.messages, x.answer]))).digest("hex");
    // Computed by the corpus code that pretrained models/tiny-chat.gguf.
    expect(digest).toBe("853a04f6b4923223c6536fda284166e650ff3633da43c17ee346ecc44233e8c6");
  });

  it("draws every level of every family, each answer accepted by its own checker", () => {
    for (const family of families) {
      for (let level = 1; level <= CURRICULUM[family].length; level++) {
        const xs = train.filter((e) => e.family === family && e.level === level);
        expect(xs.length, `${family} ${level}`).toBeGreaterThan(100);
        for (const e of xs) expect(e.check(e.answer), JSON.stringify(e.messages)).toBe(true);
      }
    }
  });

  it("grades each family: a higher level asks a longer question", () => {
    for (const family of families) {
      const meanPromptLength = CURRICULUM[family].map((_, i) => {
        const xs = sampleExamples({ seed: 4, split: "train", count: 200, version: 2, families: [family], levels: [i + 1], context: false });
        return xs.reduce((n, e) => n + JSON.stringify(e.messages).length, 0) / xs.length;
      });
      expect(meanPromptLength, family).toEqual([...meanPromptLength].sort((a, b) => a - b));
      expect(new Set(meanPromptLength).size, family).toBe(meanPromptLength.length);
    }
  });

  it("puts context before half of the tasks, and the task's split decides: no held-out task is trained on", () => {
    const withContext = train.filter((e) => e.messages.length > 1 && (e.messages[0].role === "system" || e.messages.length > 3));
    expect(withContext.length / train.length).toBeGreaterThan(0.3);
    expect(train.some((e) => e.messages[0].role === "system")).toBe(true);
    const lastTurn = (e: { messages: { content: string }[] }) => e.messages.at(-1)!.content;
    const heldout = sampleExamples({ seed: 1, split: "heldout", count: 300, version: 2, context: false });
    const trainedTasks = new Set(train.filter((e) => e.family !== "dialogue").map(lastTurn));
    expect(heldout.filter((e) => e.family !== "dialogue").some((e) => trainedTasks.has(lastTurn(e)))).toBe(false);
  });

  it("fits a 512-token context with room to answer (tiny-chat-2's tokenizer)", () => {
    const s = TINY_CHAT_2_SETTINGS;
    const tok = trainBpe(tokenizerTrainingTexts(s.tokenizerTexts, s.tokenizerSeed, 2), s.model.vocabSize, CHATML_SPECIALS);
    const lengths = train.map((e) => tok.encode(renderChat(withAnswer(e)), { parseSpecials: true }).length);
    expect(Math.max(...lengths)).toBeLessThan(480);
  });
});
