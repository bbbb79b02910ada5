// Test support: compare an analytic gradient with central differences of a float64 function.

/** ∂f/∂x[i] by central differences; x[i] is restored afterwards. */
export function centralDifference(f: () => number, x: Float64Array, i: number, h = 1e-5): number {
  const saved = x[i];
  x[i] = saved + h;
  const plus = f();
  x[i] = saved - h;
  const minus = f();
  x[i] = saved;
  return (plus - minus) / (2 * h);
}

/**
 * The worst error of analytic[i] against central differences of f over `indices`, each relative
 * to |numeric| plus 1% of the largest numeric entry, so entries that cancel to ~0 cannot dominate.
 * Float32 backward passes land around 1e-6..1e-4; a wrong gradient lands near 1.
 */
export function gradientError(
  f: () => number, x: Float64Array, analytic: ArrayLike<number>, indices: Iterable<number> = x.keys(),
): number {
  const checked = [...indices].map((i) => ({ a: analytic[i], n: centralDifference(f, x, i) }));
  const scale = Math.max(...checked.map(({ n }) => Math.abs(n)));
  if (scale === 0) throw new Error("gradient is zero everywhere checked: the check would prove nothing");
  return Math.max(...checked.map(({ a, n }) => Math.abs(a - n) / (Math.abs(n) + 0.01 * scale)));
}

/** Σ r·y: a scalar loss whose gradient w.r.t. y is r (random r exercises every output). */
export function dot(r: ArrayLike<number>, y: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < y.length; i++) s += r[i] * y[i];
  return s;
}
