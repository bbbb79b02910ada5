import { describe, expect, it } from "vitest";
import { fmaf } from "./fmaf";

describe("fmaf", () => {
  it("rounds a·b + c once to float32, where rounding through float64 would break a tie the wrong way", () => {
    const a = 1 + 2 ** -12; // a² = 1 + 2⁻¹¹ + 2⁻²⁴: exactly halfway between two float32 values
    const tiny = 2 ** -80; // lost in the float64 sum, but it decides the tie
    expect(Math.fround(a * a + tiny)).toBe(1 + 2 ** -11); // float64 then float32: the tie goes to even
    expect(fmaf(a, a, tiny)).toBe(1 + 2 ** -11 + 2 ** -23);
    expect(fmaf(a, a, -tiny)).toBe(1 + 2 ** -11);
  });

  it("equals the plain rounding when there is no tie", () => {
    for (const [a, b, c] of [[1.5, 2.25, -0.75], [Math.fround(0.1), Math.fround(0.2), Math.fround(0.3)], [3, 0, -0]])
      expect(fmaf(a, b, c)).toBe(Math.fround(a * b + c));
  });
});
