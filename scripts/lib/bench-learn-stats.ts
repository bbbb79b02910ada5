// bench:learn's statistics: the change between two measurements of the same prompts (paired, so
// the prompts' own difficulty cancels out) with its standard error, and mean ± sample standard
// deviation over seeds.

export interface Change {
  mean: number;
  /** Standard error of the mean per-prompt change. */
  standardError: number;
  /** mean / standardError (Infinity when every prompt changed by the same amount ≠ 0). */
  z: number;
}

export function spread(xs: readonly number[]): { mean: number; std: number } {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.length > 1 ? xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1) : 0;
  return { mean, std: Math.sqrt(variance) };
}

export function pairedChange(before: readonly number[], after: readonly number[]): Change {
  const { mean, std } = spread(after.map((a, i) => a - before[i]));
  const standardError = std / Math.sqrt(before.length);
  return { mean, standardError, z: standardError > 0 ? mean / standardError : mean === 0 ? 0 : Math.sign(mean) * Infinity };
}
