import { describe, expect, it } from "vitest";
import { kernelPaths } from "../../kernels/testing";
import { dot, gradientError } from "../gradcheck";
import { logSoftmax64 } from "../reference";
import { Prng } from "../../prng";
import { randomNormal } from "../random-tensor";

describe.each(kernelPaths.map((k) => [k.name, k] as const))("token logprobs and entropy (%s kernels)", (_, kernels) => {
  const [M, V] = [4, 9];
  const rng = new Prng(6);
  const logits = randomNormal(rng, M * V, 2);
  const targets = Int32Array.from([2, -1, 8, 0]); // row 1 has no target
  const dLogprobs = randomNormal(rng, M);
  const dEntropies = randomNormal(rng, M);

  // Σ_m a_m·logπ_m + b_m·H_m in float64
  const reference = (z: ArrayLike<number>) => {
    const logp = logSoftmax64(z, V);
    const lp = [...targets].map((t, m) => (t >= 0 ? logp[m * V + t] : 0));
    const H = Array.from({ length: M }, (_, m) => {
      let h = 0;
      for (let j = 0; j < V; j++) h -= Math.exp(logp[m * V + j]) * logp[m * V + j];
      return h;
    });
    return { lp, H, loss: dot(dLogprobs, lp) + dot(dEntropies, H) };
  };

  function forward() {
    const [lp, H, lse] = [new Float32Array(M), new Float32Array(M), new Float32Array(M)];
    kernels.tokenLogprobsForward(lp, H, lse, logits, targets, M, V);
    return { lp, H, lse };
  }

  it("gives log π(target) and entropy like the float64 reference", () => {
    const { lp, H } = forward();
    const ref = reference(logits);
    lp.forEach((v, m) => expect(v).toBeCloseTo(ref.lp[m], 6));
    H.forEach((v, m) => expect(v).toBeCloseTo(ref.H[m], 6));
  });

  it("backpropagates ∂L/∂logπ and ∂L/∂H into the logits", () => {
    const { H, lse } = forward();
    const grad = logits.slice();
    kernels.tokenLogprobsBackward(grad, lse, H, targets, dLogprobs, dEntropies, M, V);
    const z64 = Float64Array.from(logits);
    expect(gradientError(() => reference(z64).loss, z64, grad)).toBeLessThan(1e-5);
  });

  it("zeroes rows with no gradient", () => {
    const { H, lse } = forward();
    const grad = logits.slice();
    kernels.tokenLogprobsBackward(grad, lse, H, targets, new Float32Array(M), null, M, V);
    expect(grad.every((v) => v === 0)).toBe(true);
  });
});
