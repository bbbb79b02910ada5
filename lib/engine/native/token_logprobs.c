// The output softmax reduced to log π(target) and entropy per row, and its backward; mirrors
// lib/engine/model/layers/token-logprobs.ts (formulas there). Row sums accumulate in double.
#include <math.h>

static void token_logprobs_forward(float* logprobs, float* entropies, float* lse, const float* logits,
                                   const int* targets, int M, int V) {
  for (int m = 0; m < M; m++) {
    const float* z = logits + (size_t)m * V;
    float max = -INFINITY;
    for (int j = 0; j < V; j++) if (z[j] > max) max = z[j];
    double sum = 0, ez = 0;
    for (int j = 0; j < V; j++) {
      const double e = expf(z[j] - max);
      sum += e;
      ez += e * z[j];
    }
    const double logZ = max + log(sum);
    lse[m] = (float)logZ;
    entropies[m] = (float)(logZ - ez / sum);
    logprobs[m] = targets[m] >= 0 ? (float)(z[targets[m]] - logZ) : 0.0f;
  }
}

// Overwrites logits with ∂L/∂logits; dEntropies may be NULL.
static void token_logprobs_backward(float* logits, const float* lse, const float* entropies, const int* targets,
                                    const float* dLogprobs, const float* dEntropies, int M, int V) {
  for (int m = 0; m < M; m++) {
    float* z = logits + (size_t)m * V;
    const float dlp = targets[m] >= 0 ? dLogprobs[m] : 0.0f;
    const float dH = dEntropies ? dEntropies[m] : 0.0f;
    if (dlp == 0.0f && dH == 0.0f) {
      memset(z, 0, (size_t)V * sizeof(float));
      continue;
    }
    const float H = entropies[m];
    for (int j = 0; j < V; j++) {
      const float logp = z[j] - lse[m], p = expf(logp);
      z[j] = -dlp * p - dH * p * (logp + H);
    }
    if (dlp != 0.0f) z[targets[m]] += dlp;
  }
}
