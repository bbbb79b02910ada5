import { describe, expect, it } from "vitest";
import { Prng } from "../../prng";
import { dot, gradientError } from "../gradcheck";
import { randomNormal } from "../random-tensor";
import { biasBackward, biasForward } from "./bias";

describe("bias", () => {
  const [M, N] = [4, 5];
  const rng = new Prng(8);
  const y0 = randomNormal(rng, M * N);
  const b = randomNormal(rng, N);
  const r = randomNormal(rng, M * N);

  it("adds b to every row, and sums ∂L/∂y over the rows into ∂L/∂b", () => {
    const y = y0.slice();
    biasForward(y, b, M, N);
    y.forEach((v, i) => expect(v).toBeCloseTo(y0[i] + b[i % N], 6));
    const db = new Float32Array(N);
    biasBackward(db, r, M, N);
    const b64 = Float64Array.from(b);
    expect(gradientError(() => dot(r, Float64Array.from(y0, (v, i) => v + b64[i % N])), b64, db)).toBeLessThan(1e-6);
  });
});
