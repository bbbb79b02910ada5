// KvDecoder against the uncached forward (LlamaModel.logits on each whole sequence): logits within 1e-4 at
// every step and the same greedy tokens, on each architecture the engine runs, with full weights and with
// a LoRA adapter on every projection, prompts of different lengths prefilled together.
import { describe, expect, it } from "vitest";
import { defaultKernels } from "../kernels";
import { Prng } from "../prng";
import { GRADCHECK_ARCHITECTURES, GRADCHECK_CONFIG, roughModel } from "../test-support/gradcheck-model";
import { greedyGenerate } from "../train/greedy-generate";
import { KvDecoder } from "./kv-decoder";
import type { LlamaConfig } from "./config";
import type { LlamaModel } from "./llama-model";
import { LORA_TARGETS } from "./lora";

const PROMPTS = [[1, 7, 3], [4], [5, 6, 2, 9, 10, 8]];
const STEPS = 6;
/** The real architectures, and groups of query heads on several kv heads (each group its own). */
const ARCHITECTURES = { ...GRADCHECK_ARCHITECTURES, "llama, 4 query heads on 2 kv heads": { ...GRADCHECK_CONFIG, nHeads: 4, nKvHeads: 2 } };

// The uncached forward's logits after the last token of `tokens`, run alone.
function uncachedLogits(model: LlamaModel, tokens: readonly number[]): Float32Array {
  const T = tokens.length;
  return model.logits({ tokens: Int32Array.from(tokens), targets: new Int32Array(T).fill(-1), batchSize: 1, seqLen: T }, [T - 1]);
}

function argmax(x: Float32Array): number {
  let best = 0;
  for (let i = 1; i < x.length; i++) if (x[i] > x[best]) best = i;
  return best;
}

function maxDifference(a: Float32Array, b: Float32Array): number {
  expect(a.length).toBe(b.length);
  return a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
}

// Models with curved activations (roughModel), a context long enough for the prompts and the steps, and
// with LoRA adapters whose B is nonzero on every projection (dropout configured: inference has none).
function models(config: LlamaConfig): [string, LlamaModel][] {
  const c = { ...config, contextLength: 16 };
  const adapted = roughModel(defaultKernels(), { lora: { config: { rank: 2, alpha: 4, dropout: 0.1, targets: LORA_TARGETS }, seed: 5 } }, c);
  const prng = new Prng(8);
  for (let i = 0; i < adapted.params.values.length; i++) adapted.params.values[i] = 0.5 * prng.normal();
  return [["full weights", roughModel(defaultKernels(), {}, c)], ["a LoRA adapter", adapted]];
}

describe.each(Object.entries(ARCHITECTURES))("KvDecoder, %s", (_, config) => {
  it.each(models(config))("gives the uncached forward's logits at every step, with %s", (_, model) => {
    const V = model.config.vocabSize;
    const decoder = new KvDecoder(model, PROMPTS.length, 16);
    const sequences = PROMPTS.map((p) => [...p]);
    let rows = [0, 1, 2];
    let logits = decoder.append(rows, PROMPTS); // prompts of different lengths prefilled together
    for (let step = 0; step < STEPS; step++) {
      const next = new Map(rows.map((s, r) => {
        const cached = logits.subarray(r * V, (r + 1) * V);
        expect(maxDifference(cached, uncachedLogits(model, sequences[s]))).toBeLessThan(1e-4);
        return [s, argmax(cached)];
      }));
      // Later steps run some sequences, in another order: each keeps its own cache and positions.
      if (step === 2) rows = [2, 0];
      rows.forEach((s) => sequences[s].push(next.get(s)!));
      logits = decoder.append(rows, rows.map((s) => [next.get(s)!]));
    }
  });

  it.each(models(config))("greedy generation with %s gives the uncached forward's tokens", (_, model) => {
    const generated = greedyGenerate(model, PROMPTS, { maxNewTokens: STEPS, stopId: -1 });
    const expected = PROMPTS.map((p) => {
      const sequence = [...p];
      for (let step = 0; step < STEPS; step++) sequence.push(argmax(uncachedLogits(model, sequence)));
      return { tokens: sequence.slice(p.length), stopped: false };
    });
    expect(generated).toEqual(expected);
  });
});
