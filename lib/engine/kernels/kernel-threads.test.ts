// The native kernels give the same bits whatever ANNEAL_KERNEL_THREADS is: each splits its outputs
// (matmuls, attention, SwiGLU, the output softmax's rows) between threads, never a sum, so 1, 2 and 3 threads must agree bit for bit on the shapes real
// models train at (SmolLM2-135M: 576→1536, 9 heads over 3 KV heads; Qwen2.5-0.5B: 896→4864, 14
// over 2) and on odd ones.
import { afterAll, describe, expect, it } from "vitest";
import { GGML_TYPE, ggmlTypeName } from "../gguf/ggml-types";
import { encodeF16 } from "../gguf/half-float";
import { randomNormal } from "../model/random-tensor";
import { Prng } from "../prng";
import { bitDifference, ggmlQuantizeRows } from "../test-support/ggml-reference";
import type { AttentionShape, Kernels } from "./kernels";
import { kernelThreads, loadNativeKernels } from "./native";
import { packedWeight, packedWeightFromF32, type PackedWeight } from "./packed-weight";
import { nativeRequired } from "./testing";

const THREADS = [1, 2, 3];

/** `compute` with 1, 2 and 3 threads; every result must equal the single-threaded one bit for bit. */
function expectSameBits(compute: (k: Kernels) => Float32Array[]) {
  const [first, ...rest] = THREADS.map((n) => compute(loadNativeKernels({ threads: n })));
  for (const results of rest) results.forEach((r, i) => expect(bitDifference(r, first[i])).toBe(""));
}

function weight(type: number, rows: number, cols: number): PackedWeight {
  const values = randomNormal(new Prng(rows * 7 + cols), rows * cols, 0.05);
  if (type === GGML_TYPE.F32) return packedWeightFromF32(values, rows, cols);
  if (type === GGML_TYPE.F16) return packedWeight(type, rows, cols, new Uint8Array(encodeF16(values).buffer));
  return packedWeight(type, rows, cols, ggmlQuantizeRows(type, values, cols));
}

describe.runIf(nativeRequired)("native kernels on 1, 2 and 3 threads", () => {
  afterAll(() => loadNativeKernels()); // back to the default for the file's other users

  it("each count is the one asked for (ANNEAL_KERNEL_THREADS, else every available core)", () => {
    expect(kernelThreads("3")).toBe(3);
    expect(() => kernelThreads("0")).toThrow(/ANNEAL_KERNEL_THREADS/);
    expect(kernelThreads(undefined)).toBeGreaterThanOrEqual(1);
  });

  // [M, K, N]: projections of both models at 128 tokens, a LoRA-rank product, odd sizes.
  const GEMMS: [number, number, number][] = [[128, 576, 1536], [128, 896, 4864], [128, 4864, 896], [512, 576, 16], [37, 1000, 77], [5, 300, 2001]];
  it.each(GEMMS)("gemm M=%i K=%i N=%i: ABt, AB, AtB", (M, K, N) => {
    const rng = new Prng(M + K + N);
    const A = randomNormal(rng, M * K), Bt = randomNormal(rng, N * K), B = randomNormal(rng, K * N), G = randomNormal(rng, M * N);
    expectSameBits((k) => {
      const abt = new Float32Array(M * N), ab = new Float32Array(M * N), atb = new Float32Array(K * N).fill(1);
      k.matmulABt(abt, A, Bt, M, K, N, false);
      k.matmulAB(ab, A, B, M, K, N, false);
      k.matmulAtB(atb, A, G, M, K, N, true);
      return [abt, ab, atb];
    });
  });

  // [type, M, cols, rows]
  const PACKED: [string, number, number, number][] = [
    ["F32", 128, 576, 1536], ["F16", 128, 576, 1536], ["Q8_0", 128, 576, 1536],
    ["F16", 64, 896, 4864], ["Q8_0", 64, 896, 4864], ["Q4_K", 64, 4864, 896], ["Q6_K", 9, 512, 2000], ["Q5_0", 3, 96, 40], ["Q5_1", 128, 576, 1536],
  ];
  it.each(PACKED)("%s weight, M=%i, %i→%i: matmulXWt and matmulDyW", (name, M, cols, rows) => {
    const w = weight(GGML_TYPE[name as keyof typeof GGML_TYPE], rows, cols);
    expect(ggmlTypeName(w.type)).toBe(name);
    const rng = new Prng(M);
    const X = randomNormal(rng, M * cols), dY = randomNormal(rng, M * rows);
    expectSameBits((k) => {
      const y = new Float32Array(M * rows), dx = new Float32Array(M * cols);
      k.matmulXWt(y, X, w, M, false);
      k.matmulDyW(dx, dY, w, M, false);
      return [y, dx];
    });
  });

  it("SwiGLU over 512 tokens of Qwen2.5-0.5B's 4,864-wide MLP: forward and backward", () => {
    const n = 512 * 4864 + 3;
    const rng = new Prng(n);
    const [gate, up, dh] = [randomNormal(rng, n, 3), randomNormal(rng, n), randomNormal(rng, n)];
    expectSameBits((k) => {
      const [h, dgate, dup] = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
      k.swigluForward(h, gate, up, n);
      k.swigluBackward(dgate, dup, dh, gate, up, n);
      return [h, dgate, dup];
    });
  });

  // Rows of SmolLM2's 49,152-token output softmax, some without a target.
  it("token logprobs over a 49,152 vocabulary: forward and backward", () => {
    const [M, V] = [40, 49152];
    const rng = new Prng(V);
    const logits = randomNormal(rng, M * V, 3);
    const targets = Int32Array.from({ length: M }, (_, m) => (m % 7 === 3 ? -1 : (m * 7919) % V));
    const [dLogprobs, dEntropies] = [randomNormal(rng, M), randomNormal(rng, M)];
    expectSameBits((k) => {
      const [logprobs, entropies, lse] = [new Float32Array(M), new Float32Array(M), new Float32Array(M)];
      k.tokenLogprobsForward(logprobs, entropies, lse, logits, targets, M, V);
      const grad = logits.slice();
      k.tokenLogprobsBackward(grad, lse, entropies, targets, dLogprobs, dEntropies, M, V);
      return [logprobs, entropies, lse, grad];
    });
  });

  const ATTENTION: AttentionShape[] = [
    { batch: 2, seqLen: 130, nHeads: 9, nKvHeads: 3, headDim: 64 },
    { batch: 1, seqLen: 200, nHeads: 14, nKvHeads: 2, headDim: 64 },
    { batch: 3, seqLen: 7, nHeads: 4, nKvHeads: 4, headDim: 16 },
  ];
  it.each(ATTENTION)("attention %o: forward and backward", (s) => {
    const rng = new Prng(s.seqLen);
    const qLen = s.batch * s.seqLen * s.nHeads * s.headDim, kvLen = s.batch * s.seqLen * s.nKvHeads * s.headDim;
    const [q, k, v, dout] = [randomNormal(rng, qLen, 2), randomNormal(rng, kvLen, 2), randomNormal(rng, kvLen), randomNormal(rng, qLen)];
    expectSameBits((kernels) => {
      const out = new Float32Array(qLen), lse = new Float32Array(s.batch * s.nHeads * s.seqLen);
      const [dq, dk, dv] = [new Float32Array(qLen), new Float32Array(kvLen), new Float32Array(kvLen)];
      kernels.attentionForward(out, lse, q, k, v, s);
      kernels.attentionBackward(dq, dk, dv, dout, q, k, v, out, lse, s);
      return [out, lse, dq, dk, dv];
    });
  });
});
