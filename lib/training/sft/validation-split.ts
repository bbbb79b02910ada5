// An SFT job's validation set taken from its own examples (config.validation_fraction): a seeded
// shuffle picks which examples are held out, so the same job always holds out the same ones, and
// every example is either trained on or validated on, never both.
import { Prng } from "@/lib/engine/prng";

/** How many of n examples a fraction holds out: at least one when the fraction is positive, and
 *  always at least one left to train on. */
export function validationCount(fraction: number, n: number): number {
  if (fraction <= 0 || n < 2) return 0;
  return Math.min(n - 1, Math.max(1, Math.round(fraction * n)));
}

/** A seeded permutation of 0..n-1 (Fisher-Yates). */
export function shuffledIndices(n: number, seed: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  const rng = new Prng(seed);
  for (let i = n - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

export function splitValidation<T>(examples: readonly T[], fraction: number, seed: number): { train: T[]; validation: T[] } {
  const held = new Set(shuffledIndices(examples.length, seed).slice(0, validationCount(fraction, examples.length)));
  return { train: examples.filter((_, i) => !held.has(i)), validation: examples.filter((_, i) => held.has(i)) };
}
