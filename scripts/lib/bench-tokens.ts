// Seeded random token ids for the engine benchmark: throughput does not depend on which tokens run,
// and a fixed seed makes every run (and both engines in a comparison) see the same ones.
import { Prng } from "../../lib/engine/prng";

export function randomTokens(count: number, vocabSize: number, seed: number): number[] {
  const prng = new Prng(seed);
  return Array.from({ length: count }, () => prng.int(0, vocabSize - 1));
}
