// End to end: forward, cross-entropy, backward, clipping and AdamW together must learn.
import { describe, expect, it } from "vitest";
import { AdamW } from "./adamw";
import { clipGradNorm } from "./clip-grad-norm";
import type { LlamaConfig } from "./config";
import { tokenCrossEntropy } from "./cross-entropy";
import { LlamaModel } from "./llama-model";

describe("training", () => {
  it("memorises a sequence: loss falls from chance to near zero", () => {
    const config: LlamaConfig = { vocabSize: 16, dim: 32, nLayers: 2, nHeads: 4, nKvHeads: 2, ffnDim: 64, contextLength: 32, ropeBase: 10000, normEps: 1e-5 };
    const T = 24;
    const sequence = Array.from({ length: T + 1 }, (_, i) => (i * 7 + (i >> 2)) % 16);
    const batch = { tokens: Int32Array.from(sequence.slice(0, T)), targets: Int32Array.from(sequence.slice(1)), batchSize: 1, seqLen: T };
    const mask = new Float32Array(T).fill(1);
    const dLogprobs = new Float32Array(T);
    const model = new LlamaModel(config, { seed: 1 });
    const opt = new AdamW(model.params, { weightDecay: 0 });

    const losses: number[] = [];
    for (let step = 0; step < 80; step++) {
      losses.push(tokenCrossEntropy(model.forward(batch).logprobs, mask, dLogprobs));
      model.params.zeroGrads();
      model.backward(dLogprobs);
      clipGradNorm(model.params.grads, 1);
      opt.update(1e-2);
    }
    expect(losses[0]).toBeCloseTo(Math.log(16), 1); // an untrained model is near uniform
    expect(losses.at(-1)).toBeLessThan(0.1);
  });
});
