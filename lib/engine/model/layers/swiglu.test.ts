import { describe, expect, it } from "vitest";
import { kernelPaths } from "../../kernels/testing";
import { dot, gradientError } from "../gradcheck";
import { swiglu64 } from "../reference";
import { Prng } from "../../prng";
import { randomNormal } from "../random-tensor";

describe.each(kernelPaths.map((k) => [k.name, k] as const))("swiglu (%s kernels)", (_, kernels) => {
  const n = 20;
  const rng = new Prng(5);
  const gate = randomNormal(rng, n, 3); // wide enough to reach silu's curved and flat parts
  const up = randomNormal(rng, n);
  const r = randomNormal(rng, n);

  it("matches the float64 reference and its gradient w.r.t. gate and up", () => {
    const h = new Float32Array(n);
    kernels.swigluForward(h, gate, up, n);
    const ref = swiglu64(gate, up);
    h.forEach((v, i) => expect(v).toBeCloseTo(ref[i], 6));

    const [dgate, dup] = [new Float32Array(n), new Float32Array(n)];
    kernels.swigluBackward(dgate, dup, r, gate, up, n);
    const [g64, u64] = [Float64Array.from(gate), Float64Array.from(up)];
    const loss = () => dot(r, swiglu64(g64, u64));
    expect(gradientError(loss, g64, dgate)).toBeLessThan(1e-5);
    expect(gradientError(loss, u64, dup)).toBeLessThan(1e-5);
  });
});
