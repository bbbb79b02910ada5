// The AdamW element update over n parameters; mirrors lib/engine/model/adamw-step.ts.
#include <math.h>

static void adamw_step(float* w, const float* g, float* m, float* v, int n, float lr, float beta1, float beta2,
                       float eps, float c1, float c2, float decay) {
  for (int i = 0; i < n; i++) {
    m[i] = beta1 * m[i] + (1.0f - beta1) * g[i];
    v[i] = beta2 * v[i] + (1.0f - beta2) * g[i] * g[i];
    w[i] = w[i] * decay - lr * (m[i] / c1) / (sqrtf(v[i] / c2) + eps);
  }
}
