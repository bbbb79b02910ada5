import { describe, expect, it } from "vitest";
import { kernelPaths, nativeKernels } from "../kernels/testing";
import { tsKernels } from "../kernels/ts";
import { Prng } from "../prng";
import { GRADCHECK_ARCHITECTURES, GRADCHECK_BATCH, GRADCHECK_CONFIG, referenceObjective, roughModel } from "../test-support/gradcheck-model";
import type { LlamaConfig } from "./config";
import { gradientError } from "./gradcheck";
import { LlamaModel } from "./llama-model";
import { LORA_TARGETS } from "./lora";
import { randomNormal } from "./random-tensor";
import { logSoftmax64, referenceForward } from "./reference";

const tiny = GRADCHECK_CONFIG;
const bits = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const { tokens, targets, batchSize: B, seqLen: T } = GRADCHECK_BATCH;

describe.each(kernelPaths.map((k) => [k.name, k] as const))("LlamaModel (%s kernels)", (_, kernels) => {
  describe.each(Object.entries(GRADCHECK_ARCHITECTURES))("%s", (arch, config) => {
    it("computes the float64 reference's logits, log-probs and entropies", () => {
      const model = roughModel(kernels, {}, config);
      const batch = { tokens, targets, batchSize: B, seqLen: T };
      const logprobs = model.forward(batch).logprobs.slice();
      const logits = model.logits(batch);
      const w = model.params.weights();
      for (let s = 0; s < B; s++) {
        const ref = referenceForward(config, w, tokens.subarray(s * T, (s + 1) * T));
        const logp = logSoftmax64(ref, config.vocabSize);
        ref.forEach((v, i) => expect(logits[s * T * config.vocabSize + i]).toBeCloseTo(v, 4));
        for (let t = 0; t < T; t++) {
          const m = s * T + t;
          expect(logprobs[m]).toBeCloseTo(targets[m] >= 0 ? logp[t * config.vocabSize + targets[m]] : 0, 4);
        }
      }
    });

    // Every weight the architecture has: biases, q/k norm gains, and a tied embedding (whose gradient
    // sums the head's and the lookup's) included.
    it("has the whole-model gradient of a per-token objective over log-probs and entropies", () => {
      const model = roughModel(kernels, {}, config);
      const prng = new Prng(5);
      const a = randomNormal(prng, B * T);
      const b = randomNormal(prng, B * T);
      model.forward({ tokens, targets, batchSize: B, seqLen: T });
      model.params.zeroGrads();
      model.backward(a, b);

      const w64 = Object.fromEntries(Object.entries(model.params.weights()).map(([n, v]) => [n, Float64Array.from(v)]));
      let worst = 0;
      for (const slot of model.params.slots) {
        const err = gradientError(() => referenceObjective(w64, a, b, {}, config), w64[slot.name], model.params.grad(slot.name));
        expect(err, slot.name).toBeLessThan(1e-3);
        worst = Math.max(worst, err);
      }
      console.log(`full-model gradcheck (${kernels.name}, ${arch}): worst error ${worst.toExponential(2)}`);
    });
  });
});

describe.each(kernelPaths.map((k) => [k.name, k] as const))("recompute per layer (%s kernels)", (_, kernels) => {
  // Every architecture, LoRA with dropout (its masks are drawn again in the recomputed forward) and full.
  it.each(Object.keys(GRADCHECK_ARCHITECTURES).flatMap((arch) => [[arch, "lora"], [arch, "full"]] as const))(
    "gives the bits of the gradients that keep every activation (%s, %s)", (arch, mode) => {
    const config = GRADCHECK_ARCHITECTURES[arch];
    const lora = mode === "lora" ? { config: { rank: 2, alpha: 3, dropout: 0.3, targets: LORA_TARGETS }, seed: 7 } : undefined;
    const prng = new Prng(5);
    const [a, b] = [randomNormal(prng, B * T), randomNormal(prng, B * T)];
    const run = (recompute: boolean) => {
      const model = roughModel(kernels, { lora, recompute }, config);
      if (lora) for (const adapter of Object.values(model.adapters())) adapter.b.set(randomNormal(new Prng(8), adapter.b.length, 0.5));
      const logprobs = model.forward({ tokens, targets, batchSize: B, seqLen: T }, { dropoutSeed: 11 }).logprobs.slice();
      model.params.zeroGrads();
      model.backward(a, b);
      return { logprobs, grads: model.params.grads };
    };
    const [kept, recomputed] = [run(false), run(true)];
    expect(bits(recomputed.logprobs).equals(bits(kept.logprobs))).toBe(true);
    expect(recomputed.grads.some((g) => g !== 0)).toBe(true);
    expect(bits(recomputed.grads).equals(bits(kept.grads))).toBe(true);
  });
});

describe("LlamaModel", () => {
  it.runIf(nativeKernels !== null)("gives the same log-probs and gradients on native and TypeScript kernels", () => {
    // seqLen 80 crosses the native attention's 64-row blocks; dim 64 the matmul's edge tiles.
    const config: LlamaConfig = { ...tiny, vocabSize: 50, dim: 64, nHeads: 4, nKvHeads: 2, ffnDim: 96, contextLength: 80 };
    const [b, t] = [2, 80];
    const prng = new Prng(9);
    const ids = Int32Array.from({ length: b * t + 1 }, () => prng.int(0, 49));
    const batch = { tokens: ids.subarray(0, b * t), targets: ids.subarray(1), batchSize: b, seqLen: t };
    const dLogprobs = randomNormal(prng, b * t);
    const run = (kernels: typeof tsKernels) => {
      const model = new LlamaModel(config, { seed: 2, kernels });
      const logprobs = model.forward(batch).logprobs.slice();
      model.backward(dLogprobs, dLogprobs);
      return { logprobs, grads: model.params.grads };
    };
    const [ts, native] = [run(tsKernels), run(nativeKernels!)];
    const worst = (a: Float32Array, b: Float32Array) => {
      const scale = Math.max(...a.map(Math.abs));
      return Math.max(...a.map((v, i) => Math.abs(v - b[i]) / scale));
    };
    expect(worst(ts.logprobs, native.logprobs)).toBeLessThan(1e-5);
    expect(worst(ts.grads, native.grads)).toBeLessThan(1e-5);
  });


  it("initialises deterministically from its seed", () => {
    const a = new LlamaModel(tiny, { seed: 7 }).params.values;
    expect(new LlamaModel(tiny, { seed: 7 }).params.values).toEqual(a);
    expect(new LlamaModel(tiny, { seed: 8 }).params.values).not.toEqual(a);
  });

  it("gives a sequence the same log-probs whatever padding follows it", () => {
    const model = new LlamaModel(tiny, { seed: 1 });
    const short = model.forward({ tokens: tokens.subarray(0, 3), targets: targets.subarray(0, 3), batchSize: 1, seqLen: 3 }).logprobs.slice();
    const padded = model.forward({ tokens: Int32Array.from([1, 7, 3, 0, 0]), targets: Int32Array.from([7, 3, 3, -1, -1]), batchSize: 1, seqLen: 5 }).logprobs;
    for (let t = 0; t < 3; t++) expect(padded[t]).toBeCloseTo(short[t], 6);
  });

  it("rejects ids outside the vocabulary and a backward without its forward", () => {
    const model = new LlamaModel(tiny, { seed: 1 });
    expect(() => model.forward({ tokens: Int32Array.from([11]), targets: Int32Array.from([0]), batchSize: 1, seqLen: 1 })).toThrow(/vocabulary/);
    expect(() => model.backward(new Float32Array(1))).toThrow(/forward/);
    model.forward({ tokens: Int32Array.from([1]), targets: Int32Array.from([0]), batchSize: 1, seqLen: 1 });
    model.backward(new Float32Array(1));
    expect(() => model.backward(new Float32Array(1))).toThrow(/one backward per forward/);
  });
});
