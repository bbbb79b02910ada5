import { describe, expect, it } from "vitest";
import { wordDiff } from "./word-diff";

describe("wordDiff", () => {
  it("keeps the common words and marks the removed and added ones", () => {
    expect(wordDiff("The answer is 5.", "The answer is 4.")).toEqual([
      { kind: "same", text: "The answer is " },
      { kind: "removed", text: "5." },
      { kind: "added", text: "4." },
    ]);
  });

  it("handles an empty side and identical text", () => {
    expect(wordDiff("", "New reply")).toEqual([{ kind: "added", text: "New reply" }]);
    expect(wordDiff("Same", "Same")).toEqual([{ kind: "same", text: "Same" }]);
  });

  it("joins the parts back into each side", () => {
    const parts = wordDiff("one two three four", "one 2 three five six");
    expect(parts.filter((p) => p.kind !== "added").map((p) => p.text).join("")).toBe("one two three four");
    expect(parts.filter((p) => p.kind !== "removed").map((p) => p.text).join("")).toBe("one 2 three five six");
  });
});
