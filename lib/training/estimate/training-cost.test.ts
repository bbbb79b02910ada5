import { describe, expect, it } from "vitest";
import { BENCH_LORA_MEMORY, BENCH_LORA_TRAINING, estimateTrainingCost, measuredWeightsFor, RUN_OVERHEAD_BYTES } from "./training-cost";

const GIB = 2 ** 30;
const qwen = { parameters: 494_005_120, dim: 896, layers: 24, weightBytes: BENCH_LORA_MEMORY.weightBytes, adapterParameters: 8_798_208 };
const smol = { parameters: 134_515_008, dim: 576, layers: 30, weightBytes: 0.27e9, adapterParameters: 4_884_480 };

describe("estimateTrainingCost", () => {
  it("gives back the measured speeds on the measured shapes", () => {
    for (const row of BENCH_LORA_TRAINING) {
      const shape = row.shape === "Qwen2.5-0.5B" ? qwen : smol;
      const cost = estimateTrainingCost({ ...shape, weightType: row.weights, steps: 10, tokens: 5120 });
      expect(cost.tokensPerSecond.low).toBeCloseTo(row.tokensPerSecond.slow, 6);
      expect(cost.tokensPerSecond.high).toBeCloseTo(row.tokensPerSecond.fast, 6);
      expect(cost.seconds.low).toBeCloseTo(5120 / row.tokensPerSecond.fast, 6);
      expect(cost.seconds.high).toBeCloseTo(5120 / row.tokensPerSecond.slow, 6);
    }
  });

  it("gives back the measured peak memory at both step sizes", () => {
    for (const peak of BENCH_LORA_MEMORY.peaks) {
      const cost = estimateTrainingCost({ ...qwen, weightType: "Q8_0", steps: 3, tokens: 3 * peak.tokensPerStep });
      expect(cost.tokensPerStep).toBe(peak.tokensPerStep);
      expect(cost.peakMemoryBytes / GIB).toBeCloseTo(peak.bytes / GIB, 6);
    }
    expect(RUN_OVERHEAD_BYTES).toBeGreaterThan(0);
  });

  it("scales time by parameters between the shapes measured and holds the nearer rate outside them", () => {
    const middle = Math.sqrt(qwen.parameters * smol.parameters);
    const rate = (p: number) => estimateTrainingCost({ ...qwen, parameters: p, weightType: "F16", steps: 1, tokens: 1 }).tokensPerSecond.high * p;
    expect(rate(middle)).toBeCloseTo((120 * smol.parameters + 44 * qwen.parameters) / 2, -3);
    expect(rate(1e9)).toBeCloseTo(44 * qwen.parameters, -3);
    expect(rate(1e6)).toBeCloseTo(120 * smol.parameters, -3);
  });

  it("reads quantized bases as Q8_0 and float ones as F16; memory grows with the step's tokens and the residual stream", () => {
    expect(["Q4_K", "Q8_0", "Q5_0"].map(measuredWeightsFor)).toEqual(["Q8_0", "Q8_0", "Q8_0"]);
    expect(["F32", "F16", "BF16"].map(measuredWeightsFor)).toEqual(["F16", "F16", "F16"]);
    const at = (tokens: number, layers = 24) => estimateTrainingCost({ ...qwen, layers, weightType: "Q8_0", steps: 1, tokens }).peakMemoryBytes;
    // Linear in the step's tokens; twice the layers, twice the bytes a token.
    expect(at(2048) - at(1024)).toBeCloseTo(2 * (at(1024) - at(512)), -2);
    expect(at(1024, 48) - at(512, 48)).toBeCloseTo(2 * (at(1024) - at(512)), -2);
  });
});
