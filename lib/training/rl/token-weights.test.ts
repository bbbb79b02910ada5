import { describe, expect, it } from "vitest";
import { balanceAdvantages, tokenWeights } from "./token-weights";

// A long trajectory (30 trainable tokens) and a short one (10): N = 40, J = 2.
const long = { trainableTokens: 30, advantage: 1 };
const short = { trainableTokens: 10, advantage: -1 };

describe("tokenWeights", () => {
  it("weights 1/n per trajectory, rescaled to mean 1 over trainable tokens", () => {
    const w = tokenWeights([long, short]);
    expect(w[0]).toBeCloseTo(40 / (2 * 30), 12); // 2/3
    expect(w[1]).toBeCloseTo(40 / (2 * 10), 12); // 2
    // Each trajectory's tokens carry the same total weight, and the mean over tokens is 1.
    expect(30 * w[0]).toBeCloseTo(10 * w[1], 12);
    expect((30 * w[0] + 10 * w[1]) / 40).toBeCloseTo(1, 12);
  });

  it("gives a single trajectory weight 1", () => {
    expect(tokenWeights([long])).toEqual([1]);
  });
});

describe("balanceAdvantages", () => {
  const w = tokenWeights([long, short]);

  it("leaves advantages untouched at b = 0", () => {
    expect(balanceAdvantages([long, short], w, 0)).toEqual([1, -1]);
  });

  it("b > 0 shrinks negatives by (1 − b), then renormalises mean(|A|·w) over tokens to 1", () => {
    // A = [1, −0.5]; mean(|A|·w) = (30·1·2/3 + 10·0.5·2) / 40 = 30/40
    const a = balanceAdvantages([long, short], w, 0.5);
    expect(a[0]).toBeCloseTo(1 / 0.75, 12);
    expect(a[1]).toBeCloseTo(-0.5 / 0.75, 12);
  });

  it("b < 0 shrinks positives by (1 + b), then renormalises", () => {
    // A = [0.75, −1]; mean(|A|·w) = (30·0.75·2/3 + 10·1·2) / 40 = 35/40
    const a = balanceAdvantages([long, short], w, -0.25);
    expect(a[0]).toBeCloseTo(0.75 / 0.875, 12);
    expect(a[1]).toBeCloseTo(-1 / 0.875, 12);
    const meanAbsWeighted = (30 * Math.abs(a[0]) * w[0] + 10 * Math.abs(a[1]) * w[1]) / 40;
    expect(meanAbsWeighted).toBeCloseTo(1, 12);
  });
});
