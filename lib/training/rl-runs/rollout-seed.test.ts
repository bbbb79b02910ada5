import { describe, expect, it } from "vitest";
import { rolloutSeed } from "./rollout-seed";

describe("rolloutSeed", () => {
  it("is a uint32 fixed by (run seed, iteration, prompt index): the same after a restart or an upgrade", () => {
    const seed = rolloutSeed(7, 2, 3);
    expect(Number.isInteger(seed) && seed >= 0 && seed < 2 ** 32).toBe(true);
    expect(rolloutSeed(7, 2, 3)).toBe(seed);
    expect(rolloutSeed(7, 2, 3)).toBe(1_927_310_440);
  });

  it("differs by run seed, iteration and prompt index", () => {
    const seeds = new Set([rolloutSeed(7, 2, 3), rolloutSeed(8, 2, 3), rolloutSeed(7, 3, 3), rolloutSeed(7, 2, 4), rolloutSeed(7, 3, 2)]);
    expect(seeds.size).toBe(5);
  });
});
