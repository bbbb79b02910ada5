// SwiGLU's gate h = silu(gate)·up and its backward; mirrors lib/engine/model/layers/swiglu.ts.
#include <math.h>

static void swiglu_forward(float* h, const float* gate, const float* up, int n) {
  for (int i = 0; i < n; i++) h[i] = gate[i] / (1.0f + expf(-gate[i])) * up[i];
}

static void swiglu_backward(float* dgate, float* dup, const float* dh, const float* gate, const float* up, int n) {
  for (int i = 0; i < n; i++) {
    const float g = gate[i], sig = 1.0f / (1.0f + expf(-g));
    dup[i] = dh[i] * g * sig;
    dgate[i] = dh[i] * up[i] * sig * (1.0f + g * (1.0f - sig));
  }
}
