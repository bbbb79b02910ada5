import { describe, expect, it } from "vitest";
import { countJsonlLines, firstJsonlExample, jsonlCharacters, planSteps, planTokens, trainingPreview } from "./sft-plan";

describe("SFT form plan", () => {
  it("counts steps as the server plans them: held-out examples are not trained on, every epoch is a pass", () => {
    expect(planSteps({ examples: 40, batchSize: 2, epochs: 3, validationFraction: 0.1 })).toEqual({ train: 36, validation: 4, stepsPerEpoch: 18, steps: 54 });
    expect(planSteps({ examples: 5, batchSize: 2, epochs: 1, validationFraction: 0 })).toEqual({ train: 5, validation: 0, stepsPerEpoch: 3, steps: 3 });
  });

  it("reads a JSONL text's examples and its first example", () => {
    const text = '{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}\n\n{"messages":[]}\n';
    expect(countJsonlLines(text)).toBe(2);
    expect(firstJsonlExample(text)).toEqual({ messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }] });
    expect(firstJsonlExample("not json")).toBeNull();
  });

  it("marks the assistant turns an example trains on: all of them, or the last", () => {
    const example = {
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: "a" },
        { role: "assistant", content: "b" },
        { role: "user", content: [{ type: "text", text: "c" }] },
        { message: { role: "assistant", content: "d" }, finish_reason: "stop" },
      ],
    };
    expect(trainingPreview(example, "all").map((p) => [p.role, p.text, p.trained])).toEqual([
      ["system", "be brief", false], ["user", "a", false], ["assistant", "b", true], ["user", "c", false], ["assistant", "d", true],
    ]);
    expect(trainingPreview(example, "last").filter((p) => p.trained).map((p) => p.text)).toEqual(["d"]);
  });

  it("estimates the tokens a job trains on from its examples' characters (4 a token), without the held-out share, every epoch", () => {
    const text = '{"messages":[{"role":"user","content":"hi there"},{"role":"assistant","content":"hello you"}]}\n{not json\n{"messages":[{"role":"user","content":"abcd"}]}\n';
    expect(jsonlCharacters(text)).toBe(8 + 9 + 4);
    const plan = planSteps({ examples: 40, batchSize: 2, epochs: 3, validationFraction: 0.1 });
    // 36 of 40 examples trained on: 4,000 characters × 36/40 = 3,600 → 900 tokens an epoch.
    expect(planTokens({ characters: 4000, plan, examples: 40, epochs: 3 })).toBe(2700);
    expect(planTokens({ characters: 0, plan, examples: 0, epochs: 3 })).toBe(0);
  });
});
