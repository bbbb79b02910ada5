import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readLoraGguf, writeLoraGguf } from "../gguf/lora-gguf";
import { kernelPaths } from "../kernels/testing";
import { Prng } from "../prng";
import { GRADCHECK_ARCHITECTURES, GRADCHECK_BATCH, GRADCHECK_CONFIG, referenceObjective, roughModel } from "../test-support/gradcheck-model";
import { randomWeights, TINY_CONFIG } from "../test-support/tiny-model";
import { trainStep, type WeightedBatch } from "../train/train-step";
import { AdamW } from "./adamw";
import { FrozenBase } from "./frozen-base";
import type { LlamaConfig, LlamaWeights } from "./config";
import { gradientError } from "./gradcheck";
import { dropoutMask, dropoutStream } from "./layers/lora";
import { LlamaModel, type LlamaModelLora } from "./llama-model";
import {
  DEFAULT_LORA_CONFIG, dropoutSeedFor, LORA_A, LORA_B, LORA_TARGET_OF_MODULE, LORA_TARGETS, loraScale, loraShapes, loraSites,
  type LoraAdapter, type LoraConfig,
} from "./lora";
import { randomNormal } from "./random-tensor";
import type { ReferenceLora } from "./reference";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-lora-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const bits = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
};

/** Every adapter of `lora` drawn from normal(0, std), B included (an initialised B is 0). */
function randomAdapters(config: LlamaConfig, lora: LoraConfig, seed: number, std: number): Record<string, LoraAdapter> {
  const prng = new Prng(seed);
  return Object.fromEntries(
    loraSites(config, lora).map(({ weight }) => {
      const { a, b } = loraShapes(config, weight, lora.rank);
      return [weight, { a: randomNormal(prng, a[0] * a[1], std), b: randomNormal(prng, b[0] * b[1], std), rank: lora.rank }];
    }),
  );
}

/** A batch of `rows` random sequences with every target trained. */
function randomBatch(config: LlamaConfig, rows: number, seqLen: number, seed: number): WeightedBatch {
  const prng = new Prng(seed);
  const tokens = Int32Array.from({ length: rows * seqLen }, () => prng.int(0, config.vocabSize - 1));
  const targets = Int32Array.from({ length: rows * seqLen }, (_, i) => ((i + 1) % seqLen === 0 ? -1 : tokens[i + 1]));
  return { tokens, targets, batchSize: rows, seqLen, weights: Float32Array.from(targets, (t) => (t >= 0 ? 1 : 0)) };
}

describe("LoRA settings", () => {
  it("maps every Hugging Face module name to one GGUF target, with PEFT's published defaults", () => {
    expect(Object.values(LORA_TARGET_OF_MODULE).sort()).toEqual([...LORA_TARGETS].sort());
    expect(DEFAULT_LORA_CONFIG).toMatchObject({ rank: 16, alpha: 32, dropout: 0, targets: LORA_TARGETS });
    expect(loraScale(DEFAULT_LORA_CONFIG)).toBe(2);
  });

  it("refuses a config it cannot train", () => {
    const lora = (over: Partial<LoraConfig>): LlamaModelLora => ({ config: { ...DEFAULT_LORA_CONFIG, ...over }, seed: 1 });
    expect(() => new LlamaModel(GRADCHECK_CONFIG, { lora: lora({ rank: 0 }) })).toThrow(/rank/);
    expect(() => new LlamaModel(GRADCHECK_CONFIG, { lora: lora({ alpha: 0 }) })).toThrow(/alpha/);
    expect(() => new LlamaModel(GRADCHECK_CONFIG, { lora: lora({ dropout: 0.6 }) })).toThrow(/dropout/);
    expect(() => new LlamaModel(GRADCHECK_CONFIG, { lora: lora({ targets: [] }) })).toThrow(/targets/);
    const onlyQ = { config: { ...DEFAULT_LORA_CONFIG, rank: 2, targets: ["attn_q"] as const }, seed: 1 };
    const adapters = randomAdapters(GRADCHECK_CONFIG, { ...onlyQ.config, targets: ["attn_q", "attn_v"] }, 1, 1);
    expect(() => new LlamaModel(GRADCHECK_CONFIG, { lora: { ...onlyQ, adapters } })).toThrow(/does not target: blk.0.attn_v.weight/);
  });
});

describe.each(kernelPaths.map((k) => [k.name, k] as const))("LoRA model (%s kernels)", (_, kernels) => {
  // Every architecture with dropout (qwen3's o_proj input is wider than the model), llama without too.
  it.each([...Object.keys(GRADCHECK_ARCHITECTURES).map((arch) => [arch, 0.3] as const), ["llama", 0] as const])(
    "has the float64 reference's gradient w.r.t. every A and B (%s, dropout %s)", (arch, dropout) => {
    const config = GRADCHECK_ARCHITECTURES[arch];
    const { tokens, targets, batchSize: B, seqLen: T } = GRADCHECK_BATCH;
    const lora: LoraConfig = { rank: 2, alpha: 3, dropout, targets: LORA_TARGETS };
    const model = roughModel(kernels, { lora: { config: lora, seed: 7, adapters: randomAdapters(config, lora, 8, 0.5) } }, config);
    expect(model.params.slots.map((s) => s.name).every((n) => n.endsWith(LORA_A) || n.endsWith(LORA_B))).toBe(true);
    expect(model.base).toBeInstanceOf(FrozenBase); // a frozen base holds no gradient buffer

    const prng = new Prng(5);
    const [a, b] = [randomNormal(prng, B * T), randomNormal(prng, B * T)];
    const dropoutSeed = 11;
    model.forward({ tokens, targets, batchSize: B, seqLen: T }, { dropoutSeed });
    model.params.zeroGrads();
    model.backward(a, b);

    // The masks the model drew: the same stream per (seed, layer, projection), over the batch's rows.
    const reference: Record<string, ReferenceLora & { a: Float64Array; b: Float64Array }> = {};
    for (const { layer, target, weight } of loraSites(config, lora)) {
      const inDim = loraShapes(config, weight, lora.rank).a[1];
      const mask = new Float32Array(B * T * inDim).fill(1);
      if (dropout > 0) dropoutMask(mask, mask.length, dropout, dropoutStream(dropoutSeed, layer, target));
      const adapter = model.adapters()[weight];
      reference[weight] = { a: Float64Array.from(adapter.a), b: Float64Array.from(adapter.b), rank: lora.rank, scale: loraScale(lora), mask };
    }
    const w = model.base.weights();
    const objective = () => referenceObjective(w, a, b, reference, config);
    let worst = 0;
    for (const [weight, ref] of Object.entries(reference)) {
      for (const [half, x] of [[LORA_A, ref.a], [LORA_B, ref.b]] as const) {
        const err = gradientError(objective, x, model.params.grad(weight + half));
        expect(err, weight + half).toBeLessThan(1e-3);
        worst = Math.max(worst, err);
      }
    }
    console.log(`LoRA gradcheck (${kernels.name}, ${arch}, dropout ${dropout}): worst error ${worst.toExponential(2)}`);
  });

  it("starts exactly at its base: B = 0 gives the base's bits, with or without dropout", () => {
    const config = TINY_CONFIG;
    const weights = randomWeights(config, 1);
    const batch = randomBatch(config, 2, 40, 2);
    const baseModel = new LlamaModel(config, { weights, kernels });
    const base = baseModel.forward(batch);
    const lora = new LlamaModel(config, { weights, kernels, lora: { config: { ...DEFAULT_LORA_CONFIG, dropout: 0.1 }, seed: 3 } });
    expect(Object.values(lora.adapters()).every(({ a, b }) => a.some((v) => v !== 0) && b.every((v) => v === 0))).toBe(true);
    for (const options of [{}, { dropoutSeed: 4 }]) {
      const ours = lora.forward(batch, options);
      expect(bits(ours.logprobs).equals(bits(base.logprobs))).toBe(true);
      expect(bits(ours.entropies).equals(bits(base.entropies))).toBe(true);
    }
    expect(bits(lora.logits(batch)).equals(bits(baseModel.logits(batch)))).toBe(true);
  });

  it("computes what a full model computes with each W replaced by W + s·B·A", () => {
    const config = TINY_CONFIG;
    const weights = randomWeights(config, 1);
    const lora: LoraConfig = { rank: 4, alpha: 8, dropout: 0, targets: LORA_TARGETS };
    const adapters = randomAdapters(config, lora, 5, 0.1);
    const merged: LlamaWeights = { ...weights };
    for (const [name, { a, b, rank }] of Object.entries(adapters)) {
      const [out, inDim] = [b.length / rank, a.length / rank];
      merged[name] = Float32Array.from(weights[name], (w, i) => {
        const [o, j] = [Math.floor(i / inDim), i % inDim];
        let ba = 0;
        for (let r = 0; r < rank; r++) ba += b[o * rank + r] * a[r * inDim + j];
        return w + loraScale(lora) * ba;
      });
      expect(merged[name]).toHaveLength(out * inDim);
    }
    const batch = randomBatch(config, 2, 40, 2);
    const full = new LlamaModel(config, { weights: merged, kernels }).forward(batch).logprobs.slice();
    const ours = new LlamaModel(config, { weights, kernels, lora: { config: lora, seed: 1, adapters } }).forward(batch).logprobs;
    const err = maxAbsDiff(ours, full);
    console.log(`LoRA forward vs merged W + s·B·A (${kernels.name}): max |Δlogprob| ${err.toExponential(2)}`);
    expect(err).toBeLessThan(1e-5);
    expect(maxAbsDiff(ours, new LlamaModel(config, { weights, kernels }).forward(batch).logprobs)).toBeGreaterThan(1e-2);
  });

  it("trains only the adapters: AdamW steps lower the loss and leave the base's bits alone", () => {
    const config: LlamaConfig = { vocabSize: 16, dim: 32, nLayers: 2, nHeads: 4, nKvHeads: 2, ffnDim: 64, contextLength: 32, ropeBase: 10000, normEps: 1e-5 };
    const model = new LlamaModel(config, { seed: 1, kernels, lora: { config: { rank: 4, alpha: 8, dropout: 0, targets: LORA_TARGETS }, seed: 2 } });
    const baseWeights = () => Buffer.concat(Object.values(model.base.weights()).map(bits));
    const baseBefore = baseWeights();
    const adaptersBefore = model.params.values.slice();
    const batch = randomBatch(config, 2, 24, 3);
    const optimizer = new AdamW(model.params, { weightDecay: 0, kernels });
    const losses = Array.from({ length: 8 }, () => trainStep(model, optimizer, batch, 1e-2).loss);
    expect(losses.at(-1)!).toBeLessThan(losses[0] - 0.1);
    expect(baseWeights().equals(baseBefore)).toBe(true);
    expect(Object.values(model.adapters()).every(({ b }) => b.some((v) => v !== 0))).toBe(true);
    expect(model.params.values).not.toEqual(adaptersBefore);
  });
});

describe("LoRA training with dropout", () => {
  const config: LlamaConfig = { vocabSize: 16, dim: 32, nLayers: 2, nHeads: 4, nKvHeads: 2, ffnDim: 64, contextLength: 32, ropeBase: 10000, normEps: 1e-5 };
  const lora: LoraConfig = { rank: 4, alpha: 8, dropout: 0.1, targets: LORA_TARGETS };
  const batch = randomBatch(config, 2, 24, 3);
  const jobSeed = 5;

  /** Steps [from, to) of a job, from a fresh start or a saved state (adapters and optimizer). */
  function run(from: number, to: number, saved?: { adapters: Record<string, LoraAdapter>; m: Float32Array; v: Float32Array }, seed = jobSeed) {
    const model = new LlamaModel(config, { seed: 1, lora: { config: lora, seed: 2, adapters: saved?.adapters } });
    const optimizer = new AdamW(model.params, { weightDecay: 0 });
    if (saved) {
      optimizer.m.set(saved.m);
      optimizer.v.set(saved.v);
      optimizer.step = from;
    }
    for (let step = from; step < to; step++) trainStep(model, optimizer, batch, 1e-2, 1, dropoutSeedFor(seed, step));
    return { model, optimizer };
  }

  it("gives bit-identical adapters for the same seeds, straight through or resumed", () => {
    const a = run(0, 3).model.params.values;
    expect(bits(run(0, 3).model.params.values).equals(bits(a))).toBe(true);

    const first = run(0, 1);
    const resumed = run(1, 3, { adapters: first.model.adapters(), m: first.optimizer.m, v: first.optimizer.v });
    expect(bits(resumed.model.params.values).equals(bits(a))).toBe(true);

    expect(run(0, 3, undefined, jobSeed + 1).model.params.values).not.toEqual(a); // the masks do matter
  });

  it("drops nothing in evaluation: a forward without a seed is the same model with dropout 0", () => {
    const trained = run(0, 2).model;
    const noDropout = new LlamaModel(config, { seed: 1, lora: { config: { ...lora, dropout: 0 }, seed: 2, adapters: trained.adapters() } });
    const expected = noDropout.forward(batch).logprobs;
    expect(bits(trained.forward(batch).logprobs).equals(bits(expected))).toBe(true);
    expect(bits(trained.forward(batch, { dropoutSeed: 1 }).logprobs).equals(bits(expected))).toBe(false);
  });

  it("writes its adapters as a LoRA GGUF that reads back into the same model", () => {
    const trained = run(0, 2).model;
    const file = path.join(dir, "adapters.gguf");
    writeLoraGguf(file, { config, adapters: trained.adapters(), alpha: lora.alpha });
    const back = readLoraGguf(file, config);
    expect(back.alpha).toBe(lora.alpha);
    const reloaded = new LlamaModel(config, { seed: 1, lora: { config: lora, seed: 99, adapters: back.adapters } });
    expect(bits(reloaded.params.values).equals(bits(trained.params.values))).toBe(true);
  });
});
