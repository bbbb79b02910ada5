import { describe, expect, it } from "vitest";
import { sampleExamples, splitOf } from "./generate";

describe("reply formats", () => {
  const plain = sampleExamples({ seed: 5, split: "train", version: 2, count: 400 });
  const formatted = sampleExamples({ seed: 5, split: "train", version: 2, count: 400, replyFormats: 0.5 });

  it("wrap about the share asked for, and leave the other conversations as the corpus without them draws them", () => {
    const changed = formatted.filter((e, i) => e.answer !== plain[i].answer);
    expect(changed.length).toBeGreaterThan(150);
    expect(changed.length).toBeLessThan(250);
    formatted.forEach((e, i) => {
      if (e.answer === plain[i].answer) expect(e.messages).toEqual(plain[i].messages);
    });
  });

  it("put every reply of a conversation in its format, asked for by the system message or shown by earlier replies", () => {
    for (const [i, e] of formatted.entries()) {
      if (e.answer === plain[i].answer) continue;
      const [open] = e.answer.split(plain[i].answer);
      const replies = e.messages.filter((m) => m.role === "assistant");
      for (const r of replies) expect(r.content.startsWith(open)).toBe(true);
      const asked = e.messages[0].role === "system" && e.messages[0].content.includes(open.trim().replace(/:$/, ""));
      expect(asked || replies.length > 0).toBe(true);
    }
  });

  it("check the reply in its format only", () => {
    for (const [i, e] of formatted.entries()) {
      if (e.answer === plain[i].answer) continue;
      expect(e.check(e.answer)).toBe(true);
      expect(e.check(plain[i].answer)).toBe(false);
      expect(e.check(e.answer.slice(1))).toBe(false);
    }
  });

  it("never draw the tag bench:learn's SFT task teaches", () => {
    const many = sampleExamples({ seed: 6, split: "train", version: 2, count: 3000, replyFormats: 1 });
    expect(many.some((e) => e.answer.includes("<answer>"))).toBe(false);
    expect(new Set(many.map((e) => /^<([a-z_]+)>/.exec(e.answer)?.[1]).filter(Boolean)).size).toBeGreaterThan(200);
  });

  it("keep each task in its own split", () => {
    const heldout = sampleExamples({ seed: 5, split: "heldout", version: 2, context: false, count: 200, replyFormats: 1 });
    const unformatted = sampleExamples({ seed: 5, split: "heldout", version: 2, context: false, count: 200 });
    unformatted.forEach((e, i) => {
      expect(splitOf(e, 0.1)).toBe("heldout");
      expect(heldout[i].messages.at(-1)).toEqual(e.messages.at(-1));
    });
  });
});
