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

  // llama.cpp's rms_norm (ggml-cpu ops.cpp): float squares summed in double, mean and 1/√ in float,
  // x·scale·g in float. Anything else differs in the last bit on some rows, which flips the Q8_0/BF16
  // rounding of the next projection's input (real-layout-parity.test.ts).
  it("gives ggml's rms_norm bits", () => {
    const [rows, width] = [64, 256];
    const xs = randomNormal(new Prng(7), rows * width);
    const gs = randomNormal(new Prng(8), width);
    const y = new Float32Array(rows * width);
    kernels.rmsnormForward(y, new Float32Array(rows), xs, gs, rows, width, 1e-6);
    const f = Math.fround;
    const expected = new Float32Array(rows * width);
    for (let m = 0; m < rows; m++) {
      let sum = 0;
      for (let j = 0; j < width; j++) sum += f(xs[m * width + j] * xs[m * width + j]);
      const scale = f(1 / f(Math.sqrt(f(f(sum / width) + f(1e-6)))));
      for (let j = 0; j < width; j++) expected[m * width + j] = f(f(xs[m * width + j] * scale) * gs[j]);
    }
    expect(y).toEqual(expected);
  });
});
