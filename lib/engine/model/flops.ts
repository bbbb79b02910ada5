// Floating-point operations of one training step (forward + backward = 3× forward), counting
// multiply-adds as 2 and only the useful work: matmuls and the causal half of attention
// (not the native kernel's recomputation, nor elementwise ops).
import { headDim, type LlamaConfig } from "./config";

export function trainingFlops(c: LlamaConfig, batchSize: number, seqLen: number): number {
  const M = batchSize * seqLen;
  const kvDim = c.nKvHeads * headDim(c);
  const perLayerWeights = 2 * c.dim * c.dim + 2 * kvDim * c.dim + 3 * c.dim * c.ffnDim;
  const matmul = 2 * M * (c.nLayers * perLayerWeights + c.vocabSize * c.dim);
  // Q·Kᵀ and P·V over the causal triangle: Σ_i (i+1) = T(T+1)/2 keys per head, 2 flops each.
  const attention = c.nLayers * batchSize * c.nHeads * 2 * 2 * headDim(c) * ((seqLen * (seqLen + 1)) / 2);
  return 3 * (matmul + attention);
}
