import { describe, expect, it } from "vitest";
import { learningRate } from "./lr-schedule";

describe("learningRate", () => {
  const s = { peak: 1e-3, warmupSteps: 10, totalSteps: 110, finalFraction: 0.1 };

  it("warms up linearly to the peak", () => {
    expect(learningRate(s, 0)).toBeCloseTo(1e-4, 12);
    expect(learningRate(s, 4)).toBeCloseTo(5e-4, 12);
    expect(learningRate(s, 9)).toBeCloseTo(1e-3, 12);
  });

  it("decays by a cosine to the floor at the last step and stays there", () => {
    expect(learningRate(s, 10)).toBeCloseTo(1e-3, 12);
    expect(learningRate(s, 59.5)).toBeCloseTo(5.5e-4, 12);
    expect(learningRate(s, 109)).toBeCloseTo(1e-4, 12);
    expect(learningRate(s, 500)).toBeCloseTo(1e-4, 12);
    for (let step = 11; step < 110; step++) expect(learningRate(s, step)).toBeLessThan(learningRate(s, step - 1));
  });
});
