// Test fixture for whole-model gradient checks: a tiny llama configuration (grouped-query attention,
// 2 query heads sharing 1 kv head, head dim 4, two layers) and its variants in the real architectures'
// layouts, a batch, a model whose weights are scaled up so softmax, SwiGLU and the norms are exercised
// in their curved regions, and the float64 objective the checks differentiate.
import type { Kernels } from "../kernels";
import { weightShapes, type LlamaConfig } from "../model/config";
import { dot } from "../model/gradcheck";
import { LlamaModel, type LlamaModelOptions, type TokenBatch } from "../model/llama-model";
import { logSoftmax64, referenceForward, type ReferenceLora } from "../model/reference";
import { Prng } from "../prng";

export const GRADCHECK_CONFIG: LlamaConfig = {
  vocabSize: 11, dim: 8, nLayers: 2, nHeads: 2, nKvHeads: 1, ffnDim: 12, contextLength: 8, ropeBase: 10000, normEps: 1e-5,
};

/** GRADCHECK_CONFIG as each real architecture shapes it (model/config.ts): what each adds is checked. */
export const GRADCHECK_ARCHITECTURES: Record<string, LlamaConfig> = {
  llama: GRADCHECK_CONFIG,
  "llama, tied, rope freq factors (Llama 3.2)": { ...GRADCHECK_CONFIG, tiedOutput: true, ropeFreqFactors: [1, 5.5] },
  "qwen2 (Qwen2.5)": { ...GRADCHECK_CONFIG, arch: "qwen2", ropeStyle: "neox", qkvBias: true, tiedOutput: true },
  // Heads of 6: q and the attention output are 12 wide, wider than the model.
  qwen3: { ...GRADCHECK_CONFIG, arch: "qwen3", ropeStyle: "neox", headDim: 6, qkNorm: true, tiedOutput: true },
};

export const GRADCHECK_BATCH: TokenBatch = {
  tokens: Int32Array.from([1, 7, 3, 3, 10, 0, 2, 9, 4, 6]),
  targets: Int32Array.from([7, 3, 3, 10, -1, 2, 9, 4, 6, 5]),
  batchSize: 2,
  seqLen: 5,
};

// Init weights are ~0.02, which leaves the network almost linear: gains (and biases) become 1 ± 0.3
// and matrices normal(0, 0.5).
export function roughModel(kernels: Kernels, options: LlamaModelOptions = {}, config = GRADCHECK_CONFIG): LlamaModel {
  const prng = new Prng(4);
  const weights = Object.fromEntries(Object.entries(weightShapes(config)).map(([name, shape]) => {
    const w = new Float32Array(shape.reduce((a, b) => a * b, 1));
    for (let i = 0; i < w.length; i++) w[i] = shape.length === 1 ? 1 + 0.3 * prng.normal() : 0.5 * prng.normal();
    return [name, w];
  }));
  return new LlamaModel(config, { seed: 3, kernels, weights, ...options });
}

/** Σ_t a_t·log π_t + b_t·H_t over GRADCHECK_BATCH's positions with a target (the model computes
 *  neither anywhere else), in float64 from the reference forward (with LoRA adapters whose masks,
 *  if any, cover the whole batch's rows). */
export function referenceObjective(
  w: Record<string, ArrayLike<number>>, a: Float32Array, b: Float32Array, lora: Record<string, ReferenceLora> = {}, c = GRADCHECK_CONFIG,
): number {
  const { tokens, targets, batchSize: B, seqLen: T } = GRADCHECK_BATCH;
  let total = 0;
  for (let s = 0; s < B; s++) {
    const rows = (x: ArrayLike<number>, width: number) => Array.prototype.slice.call(x, s * T * width, (s + 1) * T * width) as number[];
    const sequenceLora = Object.fromEntries(
      Object.entries(lora).map(([name, l]) => [name, l.mask ? { ...l, mask: rows(l.mask, l.mask.length / (B * T)) } : l]),
    );
    const logp = logSoftmax64(referenceForward(c, w, tokens.subarray(s * T, (s + 1) * T), sequenceLora), c.vocabSize);
    for (let t = 0; t < T; t++) {
      const m = s * T + t;
      const row = logp.subarray(t * c.vocabSize, (t + 1) * c.vocabSize);
      if (targets[m] < 0) continue;
      total += a[m] * row[targets[m]];
      total -= b[m] * dot(row.map(Math.exp), row);
    }
  }
  return total;
}
