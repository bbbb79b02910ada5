import { describe, expect, it } from "vitest";
import { kernelPaths } from "../../kernels/testing";
import { Prng } from "../../prng";
import { dot, gradientError } from "../gradcheck";
import { randomNormal } from "../random-tensor";
import { loraLinear64 } from "../reference";
import { linearBackward, linearForward } from "./linear";
import { dropoutMask, loraBackward, loraForward, type LoraDropout, type LoraPath } from "./lora";

describe.each(kernelPaths.map((k) => [k.name, k] as const))("LoRA projection (%s kernels)", (_, kernels) => {
  const [M, inDim, outDim, rank, scale] = [5, 6, 7, 3, 1.5];
  const rng = new Prng(3);
  const x = randomNormal(rng, M * inDim);
  const W = randomNormal(rng, outDim * inDim);
  const r = randomNormal(rng, M * outDim);
  const path = (): LoraPath => ({
    a: randomNormal(new Prng(4), rank * inDim), b: randomNormal(new Prng(5), outDim * rank),
    da: new Float32Array(rank * inDim), db: new Float32Array(outDim * rank), rank, inDim, outDim, scale,
  });
  const dropout = (): LoraDropout => ({ p: 0.3, prng: new Prng(6), mask: new Float32Array(M * inDim), dropped: new Float32Array(M * inDim) });

  it.each([["without", false], ["with", true]] as const)("has the reference's output and gradients w.r.t. x, A and B %s dropout", (_, withDropout) => {
    const p = path();
    const y = new Float32Array(M * outDim);
    const u = new Float32Array(M * rank);
    linearForward(kernels, y, x, W, M, inDim, outDim);
    loraForward(kernels, y, u, x, p, M, withDropout ? dropout() : null);

    const mask = new Float32Array(M * inDim).fill(1);
    if (withDropout) dropoutMask(mask, M * inDim, 0.3, new Prng(6));
    expect(mask.some((m) => m === 0)).toBe(withDropout);
    const [x64, A64, B64] = [Float64Array.from(x), Float64Array.from(p.a), Float64Array.from(p.b)];
    const reference = () => loraLinear64(x64, W, inDim, outDim, { a: A64, b: B64, rank, scale, mask });
    reference().forEach((v, i) => expect(y[i]).toBeCloseTo(v, 5));

    const dx = new Float32Array(M * inDim);
    linearBackward(kernels, dx, null, r, x, W, M, inDim, outDim, false); // frozen W: no dW
    loraBackward(kernels, dx, new Float32Array(M * rank), r, u, x, p, M, withDropout ? dropout() : null);
    const loss = () => dot(r, reference());
    expect(gradientError(loss, x64, dx)).toBeLessThan(1e-5);
    expect(gradientError(loss, A64, p.da)).toBeLessThan(1e-5);
    expect(gradientError(loss, B64, p.db)).toBeLessThan(1e-5);
  });
});

describe("dropoutMask", () => {
  it("zeroes a fraction p, scales the rest by 1/(1−p), and repeats for an equal stream", () => {
    const n = 100_000;
    const mask = new Float32Array(n);
    dropoutMask(mask, n, 0.2, new Prng(1, 2));
    const zeros = mask.filter((m) => m === 0).length;
    expect(Math.abs(zeros / n - 0.2)).toBeLessThan(0.01);
    const kept = mask.find((m) => m !== 0)!;
    expect(kept).toBeCloseTo(1 / 0.8, 4);
    expect(mask.every((m) => m === 0 || m === kept)).toBe(true);
    const again = new Float32Array(n);
    dropoutMask(again, n, 0.2, new Prng(1, 2));
    expect(again).toEqual(mask);
  });
});
