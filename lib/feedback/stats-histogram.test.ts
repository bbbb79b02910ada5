import { describe, expect, it } from "vitest";
import { binValue, Histogram, PERCENTILE_RELATIVE_ERROR } from "./stats-histogram";

// The histograms' percentiles against percentile_cont's on the same numbers. Bins as the migration's
// feedback_stat_bin puts numbers in them.

const bin = (v: number) => (v === 0 ? 0 : Math.sign(v) * (40_000 + Math.ceil(Math.log(Math.abs(v)) / Math.log(1.01 / 0.99))));

/** percentile_cont: linear interpolation between the sorted values at ranks floor(r) and ceil(r). */
function exact(sorted: number[], fraction: number) {
  const rank = fraction * (sorted.length - 1);
  const below = Math.floor(rank);
  return sorted[below] + (rank - below) * ((sorted[Math.ceil(rank)] ?? sorted[below]) - sorted[below]);
}

function histogramOf(values: number[]) {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(bin(v), (counts.get(bin(v)) ?? 0) + 1);
  const bins = [...counts.keys()].sort((a, b) => a - b);
  return { bins, counts: bins.map((b) => counts.get(b)!) };
}

describe("log histogram", () => {
  it("a bin's value is within 1 % of every number in it", () => {
    for (const v of [1e-300, 0.003, 0.5, 1, 1.0199, 7, 99.99, 12345.678, 1e300, -2.5, -0.01]) {
      expect(Math.abs(binValue(bin(v)) - v)).toBeLessThanOrEqual((PERCENTILE_RELATIVE_ERROR + 1e-12) * Math.abs(v)); // 1 % at a bin's top (v = 1)
    }
    expect(binValue(0)).toBe(0);
  });

  it("percentiles of histograms added up are within 1 % of the exact ones, and exact at 0 and 100", () => {
    let x = 7;
    const random = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const parts = Array.from({ length: 24 }, () => Array.from({ length: 1 + Math.floor(random() * 60) }, () => Math.exp(random() * 12 - 4)));
    const all = parts.flat().sort((a, b) => a - b);
    const histogram = new Histogram();
    for (const part of parts) histogram.add(histogramOf(part));
    for (const fraction of [0, 0.01, 0.1, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1]) {
      const got = histogram.percentile(fraction, all.length, all[0], all.at(-1)!);
      expect(Math.abs(got - exact(all, fraction)), `p${fraction * 100}`).toBeLessThanOrEqual(PERCENTILE_RELATIVE_ERROR * exact(all, fraction));
    }
    expect(histogram.percentile(0, all.length, all[0], all.at(-1)!)).toBe(all[0]);
    expect(histogram.percentile(1, all.length, all[0], all.at(-1)!)).toBe(all.at(-1));
  });

  it("negative numbers, zeros and positive ones sort as numbers", () => {
    const values = [-50, -3, -3, 0, 0, 0, 2, 8, 100];
    const histogram = new Histogram();
    histogram.add(histogramOf(values.slice(0, 4)));
    histogram.add(histogramOf(values.slice(4)));
    expect(histogram.percentile(0.5, values.length, -50, 100)).toBe(0);
    expect(histogram.percentile(0.125, values.length, -50, 100)).toBeCloseTo(-3, 1);
  });
});
