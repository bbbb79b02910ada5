// The output softmax reduced to log π(target) and entropy per row, and its backward; mirrors
// lib/engine/model/layers/token-logprobs.ts (formulas there). Row sums accumulate in double. Rows
// are independent, so the context's threads take contiguous ranges of them (same bits for any count).
#include <math.h>

typedef struct {
  float *logprobs, *entropies, *lse, *logits;
  const int* targets;
  const float *dLogprobs, *dEntropies;
  int M, V, tasks;
} logprobs_job;

static void forward_rows(const logprobs_job* job, int lo, int hi) {
  float *logprobs = job->logprobs, *entropies = job->entropies, *lse = job->lse;
  const float* logits = job->logits;
  const int* targets = job->targets;
  const int V = job->V;
  for (int m = lo; m < hi; m++) {
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

static void backward_rows(const logprobs_job* job, int lo, int hi) {
  float* logits = job->logits;
  const float *lse = job->lse, *entropies = job->entropies, *dLogprobs = job->dLogprobs, *dEntropies = job->dEntropies;
  const int* targets = job->targets;
  const int V = job->V;
  for (int m = lo; m < hi; m++) {
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

static void rows_of(const logprobs_job* j, int t, int* lo, int* hi) {
  *lo = (int)((long long)j->M * t / j->tasks);
  *hi = (int)((long long)j->M * (t + 1) / j->tasks);
}

static void forward_rows_task(void* arg, int t, kernel_scratch* s) {
  int lo, hi;
  rows_of(arg, t, &lo, &hi);
  forward_rows(arg, lo, hi);
}

static void backward_rows_task(void* arg, int t, kernel_scratch* s) {
  int lo, hi;
  rows_of(arg, t, &lo, &hi);
  backward_rows(arg, lo, hi);
}

// An exp costs about as much as 16 multiply-adds of a gemm.
static int logprobs_tasks(const kernel_context* ctx, int M, int V) { return task_count(ctx, 16.0 * M * V, M); }

static void token_logprobs_forward(kernel_context* ctx, float* logprobs, float* entropies, float* lse, const float* logits,
                                   const int* targets, int M, int V) {
  logprobs_job j = {.logprobs = logprobs, .entropies = entropies, .lse = lse, .logits = (float*)logits, .targets = targets, .M = M, .V = V};
  j.tasks = logprobs_tasks(ctx, M, V);
  ctx->run(ctx->pool, j.tasks, forward_rows_task, &j);
}

// Overwrites logits with ∂L/∂logits; dEntropies may be NULL.
static void token_logprobs_backward(kernel_context* ctx, float* logits, const float* lse, const float* entropies,
                                    const int* targets, const float* dLogprobs, const float* dEntropies, int M, int V) {
  logprobs_job j = {.logits = logits, .lse = (float*)lse, .entropies = (float*)entropies, .targets = targets,
                    .dLogprobs = dLogprobs, .dEntropies = dEntropies, .M = M, .V = V};
  j.tasks = logprobs_tasks(ctx, M, V);
  ctx->run(ctx->pool, j.tasks, backward_rows_task, &j);
}
