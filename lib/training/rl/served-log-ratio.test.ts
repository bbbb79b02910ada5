import { describe, expect, it } from "vitest";
import { LlamaModel } from "@/lib/engine/model/llama-model";
import { TINY_CONFIG } from "@/lib/engine/test-support/tiny-model";
import { buildMicroBatches } from "../trajectories/micro-batches";
import { servedAbsLogRatio } from "./served-log-ratio";

describe("servedAbsLogRatio", () => {
  it("is the mean |served − trainer| log-prob over trainable tokens that have a served one", () => {
    const model = new LlamaModel(TINY_CONFIG, { seed: 2 });
    const ids = [1, 5, 7, 3, 9, 2];
    const trainable = Uint8Array.from([0, 0, 1, 1, 1, 1]);
    const row = { ids, trainable, oldLogprobs: new Float32Array(6).fill(NaN) };
    const [batch] = buildMicroBatches([{ rows: [row], advantage: 1, weight: 1 }], { rows: 1, tokens: 64 }, 0);
    expect(servedAbsLogRatio(model, batch)).toBeNull(); // no served log-probs: on-policy data
    const trainer = model.forward(batch).logprobs.slice();
    // Served log-probs off by +0.1, −0.3 and unknown on the last token; position 0's target is context.
    batch.oldLogprobs.set([NaN, trainer[1] + 0.1, trainer[2] - 0.3, trainer[3] + 0.2, NaN]);
    batch.mask[0] = 0;
    expect(servedAbsLogRatio(model, batch)).toBeCloseTo((0.1 + 0.3 + 0.2) / 3, 5);
  });
});
