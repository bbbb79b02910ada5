import { describe, expect, it } from "vitest";
import { kernelPaths } from "../../kernels/testing";
import { Prng } from "../../prng";
import { randomNormal } from "../random-tensor";
import { headChunkRows, OutputHead } from "./output-head";

const bits = (a: Float32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((max, v, i) => Math.max(max, Math.abs(v - b[i])), 0);

describe.each(kernelPaths.map((k) => [k.name, k] as const))("output head in chunks (%s kernels)", (_, k) => {
  // 11 positions in chunks of 3: targets −1 and zero gradients skip rows, so chunks gather
  // positions that are not contiguous and the last one is ragged.
  const [M, D, V] = [11, 8, 19];
  const prng = new Prng(3);
  const xn = randomNormal(prng, M * D);
  const W = randomNormal(prng, V * D, 0.7);
  const targets = Int32Array.from([4, -1, 0, 18, 7, -1, -1, 2, 9, 9, 1]);
  const dLogprobs = randomNormal(prng, M);
  dLogprobs[3] = 0; // position 3: no log-prob gradient, but an entropy one
  const dEntropies = randomNormal(prng, M);
  dEntropies[3] = 0.5;
  dLogprobs[8] = dEntropies[8] = 0; // position 8: nothing to send back

  // The whole [M,V] at once, as the model did before the head was chunked.
  function whole() {
    const logits = new Float32Array(M * V);
    const [lp, H, lse] = [new Float32Array(M), new Float32Array(M), new Float32Array(M)];
    k.matmulABt(logits, xn, W, M, D, V, false);
    const at = logits.slice();
    k.tokenLogprobsForward(lp, H, lse, logits, targets, M, V);
    // Positions without a target have no entropy (and no gradient) now: clear them on both sides.
    const hasTarget = (m: number) => targets[m] >= 0;
    const dH = dEntropies.map((v, m) => (hasTarget(m) ? v : 0));
    k.tokenLogprobsBackward(logits, lse, H, targets, dLogprobs, dH, M, V);
    const [dxn, dW] = [new Float32Array(M * D), new Float32Array(V * D)];
    k.matmulAB(dxn, logits, W, M, V, D, false);
    k.matmulAtB(dW, logits, xn, M, V, D, true);
    return { logits: at, lp, H: H.map((v, m) => (hasTarget(m) ? v : 0)), lse, dxn, dW };
  }

  it("gives the whole head's log-probs, entropies, logits and ∂L/∂xn bit for bit, and its dW within rounding", () => {
    const head = new OutputHead(D, V, 3);
    const [lp, H, lse] = [new Float32Array(M), new Float32Array(M), new Float32Array(M)];
    head.forward(k, lp, H, lse, xn, W, targets, M);
    const [dxn, dW] = [new Float32Array(M * D).fill(NaN), new Float32Array(V * D)];
    head.backward(k, dxn, dW, xn, W, targets, lse, H, dLogprobs, dEntropies, M);
    const ref = whole();
    expect(bits(lp).equals(bits(ref.lp))).toBe(true);
    expect(bits(H).equals(bits(ref.H))).toBe(true);
    expect(bits(dxn).equals(bits(ref.dxn))).toBe(true);
    expect(maxAbsDiff(dW, ref.dW)).toBeLessThan(1e-5);
    expect(bits(head.logitsAt(k, xn, W, [0, 5, 10])).equals(Buffer.concat([0, 5, 10].map((m) => bits(ref.logits.subarray(m * V, (m + 1) * V)))))).toBe(true);
  });

  it("computes nothing at positions without a target", () => {
    const head = new OutputHead(D, V, 3);
    const [lp, H, lse] = [new Float32Array(M).fill(7), new Float32Array(M).fill(7), new Float32Array(M).fill(7)];
    head.forward(k, lp, H, lse, xn, W, targets, M);
    for (const m of [1, 5, 6]) expect([lp[m], H[m], lse[m]]).toEqual([0, 0, 0]);
    const dxn = new Float32Array(M * D).fill(NaN);
    head.backward(k, dxn, null, xn, W, targets, lse, H, dLogprobs, dEntropies, M);
    for (const m of [1, 5, 6, 8]) expect(dxn.subarray(m * D, (m + 1) * D).every((v) => v === 0)).toBe(true);
  });
});

describe("headChunkRows", () => {
  it("bounds a chunk's logits to 64 MB and 256 positions", () => {
    expect(headChunkRows(151_936)).toBe(110); // Qwen2.5's vocabulary: 110 × 151,936 floats ≈ 64 MB
    expect(headChunkRows(49_152)).toBe(256);
  });
});
