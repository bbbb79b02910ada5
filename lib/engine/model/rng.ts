// A small seeded PRNG (mulberry32) so weight init and tests give the same numbers on every run.

export interface Rng {
  /** Uniform in [0, 1). */
  uniform(): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    uniform,
    normal: () => {
      const u = 1 - uniform(); // (0, 1]: log(0) would be -Infinity
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * uniform());
    },
  };
}

/** A Float32Array of n values drawn from normal(0, std). */
export function randomNormal(rng: Rng, n: number, std = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.normal() * std;
  return out;
}
