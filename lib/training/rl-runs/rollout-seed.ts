import { createHash } from "node:crypto";

// A seeded run's rollouts replay exactly: each prompt's request gets a seed that depends only on
// the run's seed, the iteration and the prompt's place in it (so a resumed run draws the same
// seeds, and no two requests of a run share one). The engine samples choice i from seed + i.

/** The chat request seed of the `promptIndex`-th prompt of `iteration` (0-based): a uint32. */
export function rolloutSeed(runSeed: number, iteration: number, promptIndex: number): number {
  return createHash("sha256").update(`anneal-rl-rollout:${runSeed}:${iteration}:${promptIndex}`).digest().readUInt32BE(0);
}
