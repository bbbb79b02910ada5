// The supervised objective: weighted mean negative log-likelihood of the target tokens,
// L = −Σ w·log π / Σ w. With 0/1 weights it is the mean over trainable tokens (SFT, pre-training).

/** Returns L and writes dLogprobs = ∂L/∂log π = −w / Σ w (the input model.backward takes). */
export function tokenCrossEntropy(logprobs: Float32Array, weights: Float32Array, dLogprobs: Float32Array): number {
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i];
  if (total <= 0) {
    dLogprobs.fill(0);
    return 0;
  }
  let loss = 0;
  for (let i = 0; i < logprobs.length; i++) {
    loss -= weights[i] * logprobs[i];
    dLogprobs[i] = -weights[i] / total;
  }
  return loss / total;
}
