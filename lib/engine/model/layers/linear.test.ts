import { describe, expect, it } from "vitest";
import { kernelPaths } from "../../kernels/testing";
import { dot, gradientError } from "../gradcheck";
import { linear64 } from "../reference";
import { Prng } from "../../prng";
import { randomNormal } from "../random-tensor";
import { linearBackward, linearForward } from "./linear";

describe.each(kernelPaths.map((k) => [k.name, k] as const))("linear (%s kernels)", (_, kernels) => {
  const [M, inDim, outDim] = [5, 6, 7];
  const rng = new Prng(3);
  const x = randomNormal(rng, M * inDim);
  const W = randomNormal(rng, outDim * inDim);
  const r = randomNormal(rng, M * outDim);

  it("matches the float64 reference, overwriting y", () => {
    const ref = linear64(x, W, inDim, outDim);
    const y = new Float32Array(M * outDim).fill(1);
    linearForward(kernels, y, x, W, M, inDim, outDim);
    y.forEach((v, i) => expect(v).toBeCloseTo(ref[i], 5));
  });

  it("has the gradient of the reference w.r.t. x and W", () => {
    const dx = new Float32Array(M * inDim);
    const dW = new Float32Array(outDim * inDim);
    linearBackward(kernels, dx, dW, r, x, W, M, inDim, outDim, false);
    const [x64, W64] = [Float64Array.from(x), Float64Array.from(W)];
    const loss = () => dot(r, linear64(x64, W64, inDim, outDim));
    expect(gradientError(loss, x64, dx)).toBeLessThan(1e-5);
    expect(gradientError(loss, W64, dW)).toBeLessThan(1e-5);
  });
});
