import { describe, expect, it } from "vitest";
import { krippendorffAlpha } from "./krippendorff-alpha";

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers, 12
// units, values 1–5, missing values (·). The paper's answers: nominal α = 0.743, interval α = 0.849.
const _ = null;
const OBSERVERS = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];
const units = OBSERVERS[0].map((_, unit) => OBSERVERS.flatMap((row) => (row[unit] === null ? [] : [row[unit]])));

describe("Krippendorff's alpha", () => {
  it("gives the paper's nominal value with missing data (0.743)", () => {
    expect(krippendorffAlpha("nominal", units)).toBeCloseTo(0.743, 3);
  });

  it("gives the paper's interval value on the same data (0.849)", () => {
    expect(krippendorffAlpha("interval", units)).toBeCloseTo(0.849, 3);
  });

  it("treats nominal values as labels: the same data as strings agree as much", () => {
    expect(krippendorffAlpha("nominal", units.map((u) => u.map(String)))).toBeCloseTo(0.743, 3);
  });

  // Section A of the paper: 2 observers, 10 units, binary (nominal) data; α = 0.095.
  it("gives the paper's two-observer binary example (0.095)", () => {
    const a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    const b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0];
    expect(krippendorffAlpha("nominal", a.map((v, i) => [v, b[i]]))).toBeCloseTo(0.095, 3);
  });

  it("is 1 for perfect agreement, and undefined without pairable values or without variation", () => {
    expect(krippendorffAlpha("interval", [[1, 1], [3, 3, 3], [5]])).toBe(1);
    expect(krippendorffAlpha("nominal", [[1], [2]])).toBeNull();
    expect(krippendorffAlpha("nominal", [["a", "a"], ["a", "a"]])).toBeNull();
  });
});
