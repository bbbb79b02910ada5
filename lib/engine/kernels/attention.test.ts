import { describe, expect, it } from "vitest";
import { dot, gradientError } from "../model/gradcheck";
import { attention64 } from "../model/reference";
import { Prng } from "../prng";
import { randomNormal } from "../model/random-tensor";
import type { AttentionShape, Kernels } from "./kernels";
import { kernelPaths, nativeKernels } from "./testing";
import { tsKernels } from "./ts";

interface Inputs { s: AttentionShape; q: Float32Array; k: Float32Array; v: Float32Array; dout: Float32Array }

function inputs(s: AttentionShape, seed: number): Inputs {
  const rng = new Prng(seed);
  const qLen = s.batch * s.seqLen * s.nHeads * s.headDim;
  const kvLen = s.batch * s.seqLen * s.nKvHeads * s.headDim;
  // std 2 makes softmax rows peaked, not near-uniform, so the Jacobian is really exercised.
  return { s, q: randomNormal(rng, qLen, 2), k: randomNormal(rng, kvLen, 2), v: randomNormal(rng, kvLen), dout: randomNormal(rng, qLen) };
}

function run(kernels: Kernels, { s, q, k, v, dout }: Inputs) {
  const out = new Float32Array(q.length);
  const lse = new Float32Array(s.batch * s.nHeads * s.seqLen);
  kernels.attentionForward(out, lse, q, k, v, s);
  const [dq, dk, dv] = [new Float32Array(q.length), new Float32Array(k.length).fill(9), new Float32Array(v.length).fill(9)];
  kernels.attentionBackward(dq, dk, dv, dout, q, k, v, out, lse, s);
  return { out, dq, dk, dv };
}

// Σ_b dout_b · attention64(q_b, k_b, v_b), sequence by sequence.
function referenceLoss({ s, dout }: Inputs, q: ArrayLike<number>, k: ArrayLike<number>, v: ArrayLike<number>) {
  const qs = s.seqLen * s.nHeads * s.headDim;
  const ks = s.seqLen * s.nKvHeads * s.headDim;
  let loss = 0;
  for (let b = 0; b < s.batch; b++) {
    const slice = (x: ArrayLike<number>, n: number) => Array.prototype.slice.call(x, b * n, (b + 1) * n) as number[];
    loss += dot(slice(dout, qs), attention64(slice(q, qs), slice(k, ks), slice(v, ks), s.nHeads, s.nKvHeads, s.headDim));
  }
  return loss;
}

// 4 query heads over 2 kv heads: grouped-query attention.
const GQA: AttentionShape = { batch: 2, seqLen: 5, nHeads: 4, nKvHeads: 2, headDim: 4 };

describe.each(kernelPaths.map((k) => [k.name, k] as const))("attention (%s kernels)", (_, kernels) => {
  const x = inputs(GQA, 7);

  it("matches the float64 reference forward", () => {
    const { out } = run(kernels, x);
    const qs = GQA.seqLen * GQA.nHeads * GQA.headDim;
    const ks = GQA.seqLen * GQA.nKvHeads * GQA.headDim;
    for (let b = 0; b < GQA.batch; b++) {
      const ref = attention64(x.q.subarray(b * qs, (b + 1) * qs), x.k.subarray(b * ks, (b + 1) * ks), x.v.subarray(b * ks, (b + 1) * ks), 4, 2, 4);
      ref.forEach((r, i) => expect(out[b * qs + i]).toBeCloseTo(r, 5));
    }
  });

  it("has the gradient of the reference w.r.t. q, k and v (summing k, v over each group)", () => {
    const { dq, dk, dv } = run(kernels, x);
    const [q, k, v] = [Float64Array.from(x.q), Float64Array.from(x.k), Float64Array.from(x.v)];
    const loss = () => referenceLoss(x, q, k, v);
    expect(gradientError(loss, q, dq)).toBeLessThan(1e-4);
    expect(gradientError(loss, k, dk)).toBeLessThan(1e-4);
    expect(gradientError(loss, v, dv)).toBeLessThan(1e-4);
  });
});

describe("native attention", () => {
  // seqLen 150 spans three of the native kernel's 64-row blocks; headDim 64 is the model's.
  const big = inputs({ batch: 2, seqLen: 150, nHeads: 4, nKvHeads: 2, headDim: 64 }, 8);

  it.runIf(nativeKernels !== null)("agrees with the TypeScript path forward and backward", () => {
    const ts = run(tsKernels, big);
    const native = run(nativeKernels!, big);
    for (const key of ["out", "dq", "dk", "dv"] as const) {
      const [a, b] = [ts[key], native[key]];
      const scale = Math.max(...a.map(Math.abs));
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / scale);
      expect(worst, key).toBeLessThan(1e-5);
    }
  });
});
