import { describe, expect, it } from "vitest";
import { Prng } from "../prng";
import { pickToken, Sampler, type SamplingParams } from "./sampler";

const logits = Float32Array.of(1, 3, 2, -1, 0.5);

function frequencies(l: Float32Array, params: SamplingParams, draws = 20000): number[] {
  const counts = new Array<number>(l.length).fill(0);
  const rng = new Prng(11);
  for (let i = 0; i < draws; i++) counts[pickToken(l, params, rng)]++;
  return counts.map((c) => c / draws);
}

describe("pickToken", () => {
  it("is greedy at temperature 0, lowest id on ties", () => {
    expect(pickToken(logits, { temperature: 0 }, new Prng(1))).toBe(1);
    expect(pickToken(Float32Array.of(0, 5, 5), { temperature: 0 }, new Prng(1))).toBe(1);
  });

  it("draws from softmax(logits / temperature)", () => {
    const l = Float32Array.of(0, Math.log(2), Math.log(4));
    const near = (f: number, p: number) => expect(Math.abs(f - p)).toBeLessThan(0.012); // ~3σ at 20k draws
    frequencies(l, {}).forEach((f, i) => near(f, [1 / 7, 2 / 7, 4 / 7][i]));
    // temperature 2 halves the logits: weights 1, √2, 2
    const z = 1 + Math.SQRT2 + 2;
    frequencies(l, { temperature: 2 }).forEach((f, i) => near(f, [1 / z, Math.SQRT2 / z, 2 / z][i]));
  });

  it("truncates with top-k, top-p and min-p", () => {
    const nonzero = (p: SamplingParams) => frequencies(logits, p, 3000).flatMap((f, i) => (f > 0 ? [i] : []));
    expect(nonzero({ topK: 2 })).toEqual([1, 2]);
    expect(nonzero({ topP: 0.5 })).toEqual([1]); // p(1) ≈ 0.63
    expect(nonzero({ topP: 0.8 })).toEqual([1, 2]);
    expect(nonzero({ minP: 0.3 })).toEqual([1, 2]); // p(2)/p(1) = e^-1 ≈ 0.37, p(0)/p(1) ≈ 0.14
  });

  it("refuses when every token is masked", () => {
    expect(() => pickToken(Float32Array.of(-Infinity, -Infinity), {}, new Prng(1))).toThrow(/masked/);
  });
});

describe("Sampler", () => {
  it("applies allowed ids, banned ids and logit bias", () => {
    const s = new Sampler({ allowedTokenIds: [0, 2, 3], bannedTokenIds: [2], logitBias: { 3: 10 } });
    expect(Array.from(s.adjust(logits))).toEqual([1, -Infinity, -Infinity, 9, -Infinity]);
  });

  it("penalises repetition over prompt and output, frequency and presence over output only", () => {
    const s = new Sampler({ temperature: 0, repetitionPenalty: 2, frequencyPenalty: 0.5, presencePenalty: 0.25 }, [3]);
    expect(Array.from(s.adjust(logits))).toEqual([1, 3, 2, -2, 0.5]); // prompt token 3: -1 · 2
    expect(s.sample(logits)).toBe(1);
    expect(s.adjust(logits)[1]).toBeCloseTo(0.75); // 3/2 - 0.5 - 0.25
    expect(s.sample(logits)).toBe(2);
    expect(Array.from(s.adjust(logits))).toEqual([1, 0.75, 0.25, -2, 0.5]); // 2/2 - 0.5 - 0.25
    expect(s.sample(logits)).toBe(0);
  });

  it("lets a constraint veto tokens", () => {
    expect(new Sampler({ temperature: 0 }).sample(logits, (t) => t !== 1 && t !== 2)).toBe(0);
  });

  it("gives the same tokens for the same seed and different ones for another", () => {
    const run = (seed: number) => {
      const s = new Sampler({ seed, repetitionPenalty: 1.1 });
      return Array.from({ length: 40 }, () => s.sample(logits));
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });
});
