import { describe, expect, it } from "vitest";
import { dot, gradientError } from "../gradcheck";
import { rope64 } from "../reference";
import { Prng } from "../../prng";
import { randomNormal } from "../random-tensor";
import { ropeBackward, ropeForward, ropeTable, type RopeOptions } from "./rope";

describe("rope", () => {
  const [B, T, H, dh, base] = [2, 5, 3, 8, 10000];
  const table = ropeTable(T, dh, base);
  const rng = new Prng(4);
  const x = randomNormal(rng, B * T * H * dh);
  const r = randomNormal(rng, B * T * H * dh);

  it("rotates adjacent pairs (2i, 2i+1) by t·base^(−2i/dh), as llama.cpp does for arch llama", () => {
    const v = new Float32Array(2 * dh); // T=2, one head; position 1 holds (1, 0) in every pair
    for (let i = 0; i < dh; i += 2) v[dh + i] = 1;
    ropeForward(v, ropeTable(2, dh, base), 1, 2, 1, dh);
    for (let i = 0; i < dh / 2; i++) {
      const angle = Math.pow(base, (-2 * i) / dh);
      expect(v[dh + 2 * i]).toBeCloseTo(Math.cos(angle), 6);
      expect(v[dh + 2 * i + 1]).toBeCloseTo(Math.sin(angle), 6);
    }
  });

  it("matches the float64 reference for every sequence of a batch", () => {
    const y = x.slice();
    ropeForward(y, table, B, T, H, dh);
    const seq = T * H * dh;
    for (let b = 0; b < B; b++) {
      const ref = rope64(x.subarray(b * seq, (b + 1) * seq), H, dh, base);
      ref.forEach((v, i) => expect(y[b * seq + i]).toBeCloseTo(v, 5));
    }
  });

  it("has the gradient of the reference", () => {
    const dx = r.slice();
    ropeBackward(dx, table, B, T, H, dh);
    const x64 = Float64Array.from(x);
    const seq = T * H * dh;
    const loss = () => {
      let s = 0;
      for (let b = 0; b < B; b++) s += dot(r.subarray(b * seq), rope64(x64.subarray(b * seq, (b + 1) * seq), H, dh, base));
      return s;
    };
    expect(gradientError(loss, x64, dx)).toBeLessThan(1e-5);
  });
});

describe.each<[string, RopeOptions]>([
  ["neox", { style: "neox" }],
  ["norm with frequency factors", { style: "norm", freqFactors: [1, 2.5, 8, 32] }],
  ["neox with frequency factors", { style: "neox", freqFactors: [1, 2.5, 8, 32] }],
])("rope (%s)", (_, options) => {
  const [B, T, H, dh, base] = [2, 5, 3, 8, 10000];
  const table = ropeTable(T, dh, base, options);
  const rng = new Prng(7);
  const x = randomNormal(rng, B * T * H * dh);
  const r = randomNormal(rng, B * T * H * dh);
  const seq = T * H * dh;

  it("turns the pair its style forms by t·base^(−2i/dh)/factor_i, as ggml_rope_ext does", () => {
    const v = new Float32Array(2 * dh); // T=2, one head; position 1 holds (1, 0) in every pair
    const pair = (i: number) => (options.style === "neox" ? [i, i + dh / 2] : [2 * i, 2 * i + 1]);
    for (let i = 0; i < dh / 2; i++) v[dh + pair(i)[0]] = 1;
    ropeForward(v, ropeTable(2, dh, base, options), 1, 2, 1, dh);
    for (let i = 0; i < dh / 2; i++) {
      const angle = Math.pow(base, (-2 * i) / dh) / (options.freqFactors?.[i] ?? 1);
      expect(v[dh + pair(i)[0]]).toBeCloseTo(Math.cos(angle), 6);
      expect(v[dh + pair(i)[1]]).toBeCloseTo(Math.sin(angle), 6);
    }
  });

  it("matches the float64 reference, and has its gradient (the inverse rotation)", () => {
    const y = x.slice();
    ropeForward(y, table, B, T, H, dh);
    for (let b = 0; b < B; b++) {
      const ref = rope64(x.subarray(b * seq, (b + 1) * seq), H, dh, base, options);
      ref.forEach((v, i) => expect(y[b * seq + i]).toBeCloseTo(v, 5));
    }
    const dx = r.slice();
    ropeBackward(dx, table, B, T, H, dh);
    const x64 = Float64Array.from(x);
    const loss = () => {
      let s = 0;
      for (let b = 0; b < B; b++) s += dot(r.subarray(b * seq), rope64(x64.subarray(b * seq, (b + 1) * seq), H, dh, base, options));
      return s;
    };
    expect(gradientError(loss, x64, dx)).toBeLessThan(1e-5);
  });
});
