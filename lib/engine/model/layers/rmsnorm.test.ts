import { describe, expect, it } from "vitest";
import { kernelPaths } from "../../kernels/testing";
import { dot, gradientError } from "../gradcheck";
import { rmsnorm64 } from "../reference";
import { Prng } from "../../prng";
import { randomNormal } from "../random-tensor";

describe.each(kernelPaths.map((k) => [k.name, k] as const))("rmsnorm (%s kernels)", (_, kernels) => {
  const [M, D, eps] = [3, 8, 1e-5];
  const rng = new Prng(2);
  const x = randomNormal(rng, M * D);
  const g = randomNormal(rng, D);
  const r = randomNormal(rng, M * D);

  function run() {
    const y = new Float32Array(M * D);
    const rstd = new Float32Array(M);
    kernels.rmsnormForward(y, rstd, x, g, M, D, eps);
    const dx = new Float32Array(M * D);
    const dg = new Float32Array(D);
    kernels.rmsnormBackward(dx, dg, r, x, g, rstd, M, D);
    return { y, dx, dg };
  }

  it("matches the float64 reference", () => {
    const ref = rmsnorm64(x, g, D, eps);
    run().y.forEach((v, i) => expect(v).toBeCloseTo(ref[i], 6));
  });

  it("has the gradient of the reference w.r.t. x and g", () => {
    const { dx, dg } = run();
    const [x64, g64] = [Float64Array.from(x), Float64Array.from(g)];
    const loss = () => dot(r, rmsnorm64(x64, g64, D, eps));
    expect(gradientError(loss, x64, dx)).toBeLessThan(1e-4);
    expect(gradientError(loss, g64, dg)).toBeLessThan(1e-4);
  });
});
