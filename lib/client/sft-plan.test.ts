import { describe, expect, it } from "vitest";
import { countJsonlLines, firstJsonlExample, planSteps, trainingPreview } from "./sft-plan";

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
});
