// Krippendorff's α: agreement among any number of annotators, with missing values, corrected for
// chance (Krippendorff, "Computing Krippendorff's Alpha-Reliability", 2011). α = 1 − D_o / D_e:
// D_o is the disagreement within items, D_e the disagreement expected from all pairable values
// pooled. Only items with two or more values are pairable; each contributes its value pairs with
// weight 1 / (m − 1). Closed forms over sums avoid building the coincidence matrix:
//   nominal  δ² = [a ≠ b]   Σ over ordered pairs = m² − Σ count²
//   interval δ² = (a − b)²   Σ over ordered pairs = 2m Σv² − 2(Σv)²

export type AlphaMetric = "nominal" | "interval";

/** The sum of δ² over the ordered pairs of `values`, and how many values there are. */
function pairSum(metric: AlphaMetric, values: readonly (string | number)[]): number {
  const m = values.length;
  if (metric === "interval") {
    let sum = 0;
    let squares = 0;
    for (const v of values as number[]) {
      sum += v;
      squares += v * v;
    }
    return 2 * m * squares - 2 * sum * sum;
  }
  const counts = new Map<string | number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let same = 0;
  for (const n of counts.values()) same += n * n;
  return m * m - same;
}

/**
 * α over `items`, each the values its annotators gave (missing ones left out: an item may have any
 * number). Null when it is undefined: fewer than two pairable values, or no variation at all
 * (every pairable value the same, so chance agreement is already perfect).
 */
export function krippendorffAlpha(metric: AlphaMetric, items: readonly (readonly (string | number)[])[]): number | null {
  const pairable = items.filter((values) => values.length >= 2);
  const pooled = pairable.flat();
  const n = pooled.length;
  if (n < 2) return null;
  const expected = pairSum(metric, pooled);
  if (expected === 0) return null;
  let observed = 0;
  for (const values of pairable) observed += pairSum(metric, values) / (values.length - 1);
  return 1 - ((n - 1) * observed) / expected;
}
