import { describe, expect, it } from "vitest";
import { probeTolerance } from "./probe-tolerance";

describe("probeTolerance", () => {
  it("allows more the further the GGUF is quantized (docs/workers.md)", () => {
    expect(["F32", "F16", "BF16"].map(probeTolerance)).toEqual([0.05, 0.05, 0.05]);
    expect(probeTolerance("Q8_0")).toBe(0.1);
    expect(["Q4_K_M", "Q5_K_S", "Q6_K", "Q5_0", "Q5_1"].map(probeTolerance)).toEqual([0.25, 0.25, 0.25, 0.25, 0.25]);
    expect(["Q4_0", "Q4_1", "IQ4_NL", "IQ3_S"].map(probeTolerance)).toEqual([0.5, 0.5, 0.5, 0.5]);
  });
});
