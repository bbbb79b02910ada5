import { describe, expect, it } from "vitest";
import type { QueueSpecDto } from "@/lib/queues/queue-schemas";
import { choicesOf, initialForm, numericChoices, toSubmission, valueForDigit } from "./annotation-form";

const base = { ref: "svc:///t/p/object/x:d", version: 1, description: "" };
const score: QueueSpecDto = { ...base, name: "score", type: "numeric", min: 1, max: 5, integer: true, required: true };
const ratio: QueueSpecDto = { ...base, name: "ratio", type: "numeric", min: 0, max: 1, required: false };
const ok: QueueSpecDto = { ...base, name: "ok", type: "boolean", required: true };
const tone: QueueSpecDto = { ...base, name: "tone", type: "categorical", options: ["calm", "curt", "rude"], required: false };
const fixed: QueueSpecDto = { ...base, name: "fixed", type: "corrected_reply", required: false };
const why: QueueSpecDto = { ...base, name: "why", type: "text", required: false };
const specs = [score, ratio, ok, tone, fixed, why];

describe("initialForm", () => {
  it("opens empty but for a corrected reply, which starts as the model's answer", () => {
    expect(initialForm(specs, { values: {}, note: null }, "The answer.")).toEqual({
      values: { score: undefined, ratio: undefined, ok: undefined, tone: undefined, fixed: "The answer.", why: undefined },
      note: "",
    });
  });

  it("opens a submitted item with one's values (numbers as the input's text) and note", () => {
    const form = initialForm(specs, { values: { score: 4, ok: false, tone: "curt", fixed: "Better." }, note: "hm" }, "The answer.");
    expect(form.values).toMatchObject({ score: "4", ok: false, tone: "curt", fixed: "Better." });
    expect(form.note).toBe("hm");
  });
});

describe("digit keys", () => {
  it("pick yes (1) or no (2), and a category by its place", () => {
    expect(choicesOf(ok)).toEqual([true, false]);
    expect(valueForDigit(ok, 2)).toBe(false);
    expect(valueForDigit(tone, 3)).toBe("rude");
    expect(valueForDigit(tone, 4)).toBeUndefined();
    const many: QueueSpecDto = { ...tone, options: Array.from({ length: 12 }, (_, i) => `o${i + 1}`) };
    expect(choicesOf(many)).toHaveLength(12); // all shown; digits reach the first nine
    expect(valueForDigit(many, 9)).toBe("o9");
  });

  it("set a whole number within a numeric spec's range, nothing outside it or for text", () => {
    expect(valueForDigit(score, 5)).toBe("5");
    expect(valueForDigit(score, 6)).toBeUndefined();
    expect(valueForDigit(ratio, 1)).toBe("1");
    expect(valueForDigit(ratio, 2)).toBeUndefined();
    expect(valueForDigit(why, 1)).toBeUndefined();
    expect(choicesOf(score)).toBeNull();
  });
});

describe("toSubmission", () => {
  const form = (values: Record<string, string | boolean | undefined>) => ({ values, note: "" });

  it("names each required field left empty (a blank text is empty)", () => {
    expect(toSubmission(specs, form({ score: "  " }))).toEqual({ errors: { score: "Required", ok: "Required" } });
  });

  it("checks numbers against the spec: a number, whole when asked, in range", () => {
    expect(toSubmission([score], form({ score: "4.5" }))).toEqual({ errors: { score: "A whole number" } });
    expect(toSubmission([score], form({ score: "9" }))).toEqual({ errors: { score: "From 1 to 5" } });
    expect(toSubmission([ratio], form({ ratio: "-0.5" }))).toEqual({ errors: { ratio: "From 0 to 1" } });
    expect(toSubmission([ratio], form({ ratio: "0.25" }))).toEqual({ values: { ratio: 0.25 } });
  });

  it("sends numbers as numbers, choices and texts as they are, and leaves out empty optional fields", () => {
    expect(toSubmission(specs, form({ score: "3", ok: false, tone: undefined, fixed: "Better.", why: "" }))).toEqual({ values: { score: 3, ok: false, fixed: "Better." } });
  });
});

describe("a preferred choice", () => {
  const better: QueueSpecDto = { ...base, name: "better", type: "preferred_choice", required: true };

  it("with two answers: a digit picks the preferred one, the other is what it is preferred over", () => {
    expect(valueForDigit(better, 2, { choiceCount: 2 })).toEqual({ preferred: 1, over: 0 });
    expect(valueForDigit(better, 1, { current: { preferred: 1, over: 0 }, choiceCount: 2 })).toEqual({ preferred: 0, over: 1 });
    expect(valueForDigit(better, 3, { choiceCount: 2 })).toBeUndefined();
    expect(valueForDigit(better, 1, { choiceCount: 1 })).toBeUndefined();
  });

  it("with more: the first digit the preferred answer, the next another answer it beats, a third starts again", () => {
    const first = valueForDigit(better, 3, { choiceCount: 4 });
    expect(first).toEqual({ preferred: 2 });
    expect(valueForDigit(better, 3, { current: first, choiceCount: 4 })).toEqual({ preferred: 2 }); // not over itself
    const pair = valueForDigit(better, 1, { current: first, choiceCount: 4 });
    expect(pair).toEqual({ preferred: 2, over: 0 });
    expect(valueForDigit(better, 4, { current: pair, choiceCount: 4 })).toEqual({ preferred: 3 });
  });

  it("is submitted as {preferred, over}; half a pair is named, a stored pair opens as it was", () => {
    expect(toSubmission([better], { values: { better: { preferred: 1, over: 0 } }, note: "" })).toEqual({ values: { better: { preferred: 1, over: 0 } } });
    expect(toSubmission([better], { values: { better: { preferred: 1 } }, note: "" })).toEqual({ errors: { better: "Pick the answer it is preferred over" } });
    expect(initialForm([better], { values: { better: { preferred: 0, over: 2 } }, note: null }, "").values.better).toEqual({ preferred: 0, over: 2 });
  });

  it("offers a numeric spec's whole numbers as buttons where its range is small", () => {
    expect(numericChoices({ ...base, name: "score", type: "numeric", min: 1, max: 5, integer: true, required: true } as QueueSpecDto)).toEqual(["1", "2", "3", "4", "5"]);
    expect(numericChoices({ ...base, name: "r", type: "numeric", min: 0, max: 9, required: true } as QueueSpecDto)).toHaveLength(10);
    expect(numericChoices({ ...base, name: "wide", type: "numeric", min: 0, max: 100, required: true } as QueueSpecDto)).toBeNull();
    expect(numericChoices({ ...base, name: "open", type: "numeric", min: 1, required: true } as QueueSpecDto)).toBeNull();
  });
});
