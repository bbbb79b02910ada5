import { describe, expect, it } from "vitest";
import { kernelPaths } from "../kernels/testing";
import type { LlamaConfig } from "./config";
import { AdamW } from "./adamw";
import { ParameterSet } from "./parameters";

// No blocks: just token_embd [1,2], output_norm [2] (a gain: not decayed) and output [1,2].
const config: LlamaConfig = { vocabSize: 1, dim: 2, nLayers: 0, nHeads: 1, nKvHeads: 1, ffnDim: 1, contextLength: 1, ropeBase: 1e4, normEps: 1e-5 };

describe.each(kernelPaths.map((k) => [k.name, k] as const))("AdamW (%s kernels)", (_, kernels) => {
  it("matches a hand computation over two steps, decaying matrices but not gains", () => {
    const params = ParameterSet.forModel(config);
    const matrix = params.value("output.weight");
    const gain = params.value("output_norm.weight");
    matrix[0] = 0.5;
    gain[0] = 1;
    const opt = new AdamW(params, { beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, kernels });
    const lr = 0.1;

    params.grad("output.weight")[0] = 0.2;
    params.grad("output_norm.weight")[0] = 0.2;
    opt.update(lr);
    // m = 0.1·0.2 = 0.02, v = 0.05·0.2² = 0.002; bias-corrected m̂ = 0.02/0.1 = 0.2, v̂ = 0.002/0.05 = 0.04.
    const step1 = (lr * 0.2) / (Math.sqrt(0.04) + 1e-8);
    const matrix1 = 0.5 * (1 - lr * 0.1) - step1;
    const gain1 = 1 - step1;
    expect(matrix[0]).toBeCloseTo(matrix1, 6);
    expect(gain[0]).toBeCloseTo(gain1, 6);

    params.grad("output.weight")[0] = -0.4;
    params.grad("output_norm.weight")[0] = -0.4;
    opt.update(lr);
    // m = 0.9·0.02 + 0.1·(−0.4) = −0.022, v = 0.95·0.002 + 0.05·0.16 = 0.0099;
    // m̂ = −0.022/(1 − 0.81), v̂ = 0.0099/(1 − 0.9025).
    const step2 = (lr * (-0.022 / 0.19)) / (Math.sqrt(0.0099 / 0.0975) + 1e-8);
    expect(matrix[0]).toBeCloseTo(matrix1 * (1 - lr * 0.1) - step2, 6);
    expect(gain[0]).toBeCloseTo(gain1 - step2, 6);
    expect(opt.step).toBe(2);
  });
});
