import type { Prng } from "../prng";

/** A Float32Array of n values drawn from normal(0, std). */
export function randomNormal(prng: Prng, n: number, std = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = prng.normal() * std;
  return out;
}
