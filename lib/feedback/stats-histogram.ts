// The log histograms the aggregate cells keep of each path's numbers (migration
// feedback_stat_cells, feedback_stat_bin): bin i > 0 holds (g^(i-40001), g^(i-40000)] with
// g = 1.01/0.99, negative numbers mirror it, 0 is its own. A bin stands for 0.99·g^(i-40000), within
// 1 % of every number in it. Percentiles are read from merged histograms as percentile_cont reads
// sorted values: rank r = p·(N−1), the values at ranks floor(r) and ceil(r) interpolated — each
// value its bin's, clamped to the exact extremes (and exactly them at ranks 0 and N−1). So a
// percentile is within 1 % of the larger magnitude of the two values it interpolates between.

export const PERCENTILE_RELATIVE_ERROR = 0.01;
const BIN_OFFSET = 40_000;
const LOG_G = Math.log(1.01 / 0.99);
const LOG_SCALE = Math.log(0.99);

/** The number bin `bin` stands for. */
export function binValue(bin: number): number {
  if (bin === 0) return 0;
  const magnitude = Math.exp((Math.abs(bin) - BIN_OFFSET) * LOG_G + LOG_SCALE);
  return bin < 0 ? -magnitude : magnitude;
}

export interface HistogramPart {
  bins: ArrayLike<number>;
  counts: ArrayLike<number>;
}

/** Histograms added up: kept apart until a percentile is asked, then summed over their range of bins. */
export class Histogram {
  private parts: HistogramPart[] = [];
  private summed: HistogramPart | undefined;

  add(part: HistogramPart) {
    if (part.bins.length > 0) this.parts.push(part);
    this.summed = undefined;
  }

  merge(other: Histogram) {
    for (const part of other.parts) this.add(part);
  }

  /** One part: the bins in order with their counts. */
  private sum(): HistogramPart {
    if (this.parts.length === 1) return this.parts[0];
    let [lo, hi] = [Infinity, -Infinity];
    for (const { bins } of this.parts) [lo, hi] = [Math.min(lo, bins[0]), Math.max(hi, bins[bins.length - 1])];
    if (lo > hi) return { bins: [], counts: [] };
    const dense = new Float64Array(hi - lo + 1);
    for (const { bins, counts } of this.parts) for (let j = 0; j < bins.length; j++) dense[bins[j] - lo] += counts[j];
    const bins: number[] = [];
    const counts: number[] = [];
    dense.forEach((count, j) => {
      if (count !== 0) bins.push(lo + j), counts.push(count);
    });
    return { bins, counts };
  }

  /** The percentile `fraction` (0..1) of `n` numbers whose least is `lo` and greatest `hi`. */
  percentile(fraction: number, n: number, lo: number, hi: number): number {
    const { bins, counts } = (this.summed ??= this.sum());
    const rank = fraction * (n - 1);
    const below = Math.floor(rank);
    const at = (k: number) => {
      if (k <= 0) return lo;
      if (k >= n - 1) return hi;
      let seen = 0;
      for (let j = 0; j < bins.length; j++) {
        seen += counts[j];
        if (k < seen) return Math.min(hi, Math.max(lo, binValue(bins[j])));
      }
      return hi;
    };
    const low = at(below);
    return rank === below ? low : low + (rank - below) * (at(below + 1) - low);
  }
}
