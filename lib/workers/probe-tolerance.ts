// How far a worker's probe logprobs may be from Anneal's on the base's GGUF (mean |Δ| in nats), by
// the GGUF's weight type: the worker computes on the original weights in its training precision,
// Anneal on the file's encoding, so the further the file is quantized the more they differ. Two
// different models differ by nats; these bounds sit well under that.

const EXACT = new Set(["F32", "F16", "BF16"]);

export function probeTolerance(weightType: string): number {
  if (EXACT.has(weightType)) return 0.05;
  if (weightType === "Q8_0") return 0.1;
  // K-quants, and the 5/6-bit types.
  if (/_K/.test(weightType) || /^Q[56]_/.test(weightType)) return 0.25;
  // 4-bit (Q4_0, Q4_1, IQ4_*) and anything coarser.
  return 0.5;
}
