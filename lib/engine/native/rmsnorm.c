// RMSNorm forward and backward; mirrors lib/engine/model/layers/rmsnorm.ts (the derivation is there).
// Rounded as ggml's rms_norm (ops.cpp) and the TypeScript version: float squares summed in double,
// the mean and 1/sqrt in float.
#include <math.h>

static void rmsnorm_forward(float* y, float* rstd, const float* x, const float* g, int M, int D, float eps) {
  for (int m = 0; m < M; m++) {
    const float* xr = x + (size_t)m * D;
    float* yr = y + (size_t)m * D;
    double ss = 0;
    for (int j = 0; j < D; j++) ss += (double)(xr[j] * xr[j]);
    const float mean = (float)(ss / D);
    const float r = 1.0f / sqrtf(mean + eps);
    rstd[m] = r;
    for (int j = 0; j < D; j++) yr[j] = xr[j] * r * g[j];
  }
}

// dx += ∂/∂x, dg += ∂/∂g.
static void rmsnorm_backward(float* dx, float* dg, const float* dy, const float* x, const float* g, const float* rstd,
                             int M, int D) {
  for (int m = 0; m < M; m++) {
    const float* xr = x + (size_t)m * D;
    const float* dyr = dy + (size_t)m * D;
    float* dxr = dx + (size_t)m * D;
    const float r = rstd[m];
    double dot = 0;
    for (int j = 0; j < D; j++) {
      dot += (double)dyr[j] * g[j] * xr[j];
      dg[j] += dyr[j] * xr[j] * r;
    }
    const float c = (float)(r * r * r * dot / D);
    for (int j = 0; j < D; j++) dxr[j] += r * g[j] * dyr[j] - xr[j] * c;
  }
}
