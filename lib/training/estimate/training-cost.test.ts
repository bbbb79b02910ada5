import { describe, expect, it } from "vitest";
import { activationBytesPerToken, recomputesForRows } from "@/lib/engine/model/activations";
import { DEFAULT_LORA_CONFIG } from "@/lib/engine/model/lora";
import { BENCH_LORA_MEMORY, BENCH_LORA_TRAINING, estimateTrainingCost, measuredWeightsFor, RUN_OVERHEAD_BYTES } from "./training-cost";

const GIB = 2 ** 30;
/** As the measured run held them: every block recomputed. */
const recomputed = () => activationBytesPerToken(BENCH_LORA_MEMORY.config, DEFAULT_LORA_CONFIG, true);
const qwen = { parameters: 494_005_120, weightBytes: BENCH_LORA_MEMORY.weightBytes, adapterParameters: 8_798_208, activationBytesPerToken: recomputed };
const smol = { parameters: 134_515_008, weightBytes: 0.27e9, adapterParameters: 4_884_480, activationBytesPerToken: recomputed };

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

  it("gives back the measured peak memory: the step it is read from, and within 5% the other (the engine's activation bytes as the run held them)", () => {
    const [fitted, other] = BENCH_LORA_MEMORY.peaks;
    const at = (tokensPerStep: number) => estimateTrainingCost({ ...qwen, weightType: "Q8_0", steps: 3, tokens: 3 * tokensPerStep });
    expect(at(fitted.tokensPerStep).tokensPerStep).toBe(512);
    expect(at(fitted.tokensPerStep).peakMemoryBytes / GIB).toBeCloseTo(fitted.bytes / GIB, 6);
    expect(Math.abs(at(other.tokensPerStep).peakMemoryBytes / other.bytes - 1)).toBeLessThan(0.05);
    // The runtime and the output head's chunk: positive, and far below the base.
    expect(RUN_OVERHEAD_BYTES).toBeGreaterThan(0);
    expect(RUN_OVERHEAD_BYTES).toBeLessThan(0.25 * GIB);
  });

  it("predicts the peaks measured since steps keep their activations while they fit (README: 1.75 GiB at 512 tokens, 1.74 at 4,096; zen4, 0e11091)", () => {
    const { config } = BENCH_LORA_MEMORY;
    const asTheEngineRuns = (rows: number) => activationBytesPerToken(config, DEFAULT_LORA_CONFIG, recomputesForRows(config, DEFAULT_LORA_CONFIG, rows));
    const at = (tokensPerStep: number) => estimateTrainingCost({ ...qwen, activationBytesPerToken: asTheEngineRuns, weightType: "Q8_0", steps: 1, tokens: tokensPerStep }).peakMemoryBytes / GIB;
    expect(Math.abs(at(512) / 1.75 - 1)).toBeLessThan(0.03);
    expect(Math.abs(at(4096) / 1.74 - 1)).toBeLessThan(0.03);
  });

  it("scales time by parameters between the shapes measured and holds the nearer rate outside them", () => {
    const middle = Math.sqrt(qwen.parameters * smol.parameters);
    const rate = (p: number) => estimateTrainingCost({ ...qwen, parameters: p, weightType: "F16", steps: 1, tokens: 1 }).tokensPerSecond.high * p;
    expect(rate(middle)).toBeCloseTo((120 * smol.parameters + 44 * qwen.parameters) / 2, -3);
    expect(rate(1e9)).toBeCloseTo(44 * qwen.parameters, -3);
    expect(rate(1e6)).toBeCloseTo(120 * smol.parameters, -3);
  });

  it("reads quantized bases as Q8_0 and float ones as F16; memory grows with the step's tokens as the engine holds them", () => {
    expect(["Q4_K", "Q8_0", "Q5_0"].map(measuredWeightsFor)).toEqual(["Q8_0", "Q8_0", "Q8_0"]);
    expect(["F32", "F16", "BF16"].map(measuredWeightsFor)).toEqual(["F16", "F16", "F16"]);
    const at = (tokens: number, perToken: (rows: number) => number) => estimateTrainingCost({ ...qwen, activationBytesPerToken: perToken, weightType: "Q8_0", steps: 1, tokens }).peakMemoryBytes;
    expect(at(2048, () => 1000) - at(1024, () => 1000)).toBe(1024 * 1000);
    // Kept activations (short steps) cost more a token than recomputed ones.
    expect(at(1024, (rows) => (rows < 2048 ? 3000 : 1000)) - at(1024, () => 1000)).toBe(1024 * 2000);
  });
});
