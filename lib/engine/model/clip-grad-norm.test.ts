import { describe, expect, it } from "vitest";
import { clipGradNorm } from "./clip-grad-norm";

describe("clipGradNorm", () => {
  it("scales gradients down to maxNorm and returns the norm before clipping", () => {
    const g = Float32Array.from([3, 4]);
    expect(clipGradNorm(g, 1)).toBeCloseTo(5, 6);
    expect(Array.from(g)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
  });

  it("leaves gradients within the limit, and non-finite ones, untouched", () => {
    const small = Float32Array.from([0.3, 0.4]);
    expect(clipGradNorm(small, 1)).toBeCloseTo(0.5, 6);
    expect(Array.from(small)).toEqual([expect.closeTo(0.3, 6), expect.closeTo(0.4, 6)]);
    const bad = Float32Array.from([NaN, 1]);
    expect(clipGradNorm(bad, 1)).toBeNaN();
    expect(bad[1]).toBe(1);
  });
});
