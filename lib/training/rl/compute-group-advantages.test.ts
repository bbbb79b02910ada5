import { describe, expect, it } from "vitest";
import { computeGroupAdvantages, rewardStats } from "./compute-group-advantages";

describe("computeGroupAdvantages", () => {
  it("centres on the mean and divides by the population std + 1e-6", () => {
    // rewards 1, 0, 0, 0: mean 0.25, population std √(0.1875) = 0.4330127
    const std = Math.sqrt(0.1875);
    const a = computeGroupAdvantages([1, 0, 0, 0], true);
    expect(a[0]).toBeCloseTo(0.75 / (std + 1e-6), 12);
    expect(a[1]).toBeCloseTo(-0.25 / (std + 1e-6), 12);
    expect(computeGroupAdvantages([1, 0, 0, 0], false)).toEqual([0.75, -0.25, -0.25, -0.25]);
  });

  it("gives 0 to every trajectory of an equal-reward group and to a lone trajectory", () => {
    expect(computeGroupAdvantages([0.7, 0.7, 0.7], true)).toEqual([0, 0, 0]);
    expect(computeGroupAdvantages([3], true)).toEqual([0]);
  });

  it("reports mean and population std", () => {
    expect(rewardStats([2, 4])).toEqual({ mean: 3, std: 1 });
    expect(rewardStats([])).toEqual({ mean: 0, std: 0 });
  });
});
