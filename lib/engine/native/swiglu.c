// SwiGLU's gate h = silu(gate)·up and its backward; mirrors lib/engine/model/layers/swiglu.ts.
// Elementwise, so the context's threads take contiguous ranges (same bits for any count): an expf
// per element makes a projection's worth of them cost a few milliseconds.
#include <math.h>

typedef struct {
  float *h, *dgate, *dup;
  const float *gate, *up, *dh;
  int n, tasks;
} swiglu_job;

static void swiglu_forward_task(void* arg, int t, kernel_scratch* s) {
  const swiglu_job* j = arg;
  const int lo = (int)((long long)j->n * t / j->tasks), hi = (int)((long long)j->n * (t + 1) / j->tasks);
  // ggml_vec_swiglu_f32: ggml_v_silu(gate)·up in its vector loop (rows of whole lanes, as every real
  // model's FFN width is; a row's leftover values would take libm's expf there).
  const int lanes = cpu_float_order().lanes;
#ifdef HAVE_GGML_V_EXPF16
  if (lanes == 16) {
    ggml_swiglu16(j->h + lo, j->gate + lo, j->up + lo, hi - lo);
    return;
  }
#endif
  for (int i = lo; i < hi; i++) j->h[i] = ggml_silu(j->gate[i], lanes) * j->up[i];
}

static void swiglu_backward_task(void* arg, int t, kernel_scratch* s) {
  const swiglu_job* j = arg;
  const int lo = (int)((long long)j->n * t / j->tasks), hi = (int)((long long)j->n * (t + 1) / j->tasks);
  float *dgate = j->dgate, *dup = j->dup;
  const float *dh = j->dh, *gate = j->gate, *up = j->up;
  for (int i = lo; i < hi; i++) {
    const float g = gate[i], sig = 1.0f / (1.0f + expf(-g));
    dup[i] = dh[i] * g * sig;
    dgate[i] = dh[i] * up[i] * sig * (1.0f + g * (1.0f - sig));
  }
}

static void swiglu_forward(kernel_context* ctx, float* h, const float* gate, const float* up, int n) {
  swiglu_job j = {.h = h, .gate = gate, .up = up, .n = n, .tasks = task_count(ctx, 16.0 * n, n)};
  ctx->run(ctx->pool, j.tasks, swiglu_forward_task, &j);
}

static void swiglu_backward(kernel_context* ctx, float* dgate, float* dup, const float* dh, const float* gate,
                            const float* up, int n) {
  swiglu_job j = {.dgate = dgate, .dup = dup, .dh = dh, .gate = gate, .up = up, .n = n, .tasks = task_count(ctx, 16.0 * n, n)};
  ctx->run(ctx->pool, j.tasks, swiglu_backward_task, &j);
}
