// Causal grouped-query attention on top of sgemm, one (sequence, head) at a time in blocks of
// ROWS query rows: block rows [i0, i1) only see keys [0, i1), so the masked upper triangle is
// skipped except inside the diagonal block. Probabilities are never stored across calls: forward
// saves each row's log-sum-exp and backward recomputes P = exp(S·scale − lse) (FlashAttention's trick),
// so memory stays O(T·ROWS) per call instead of O(B·H·T²), in the caller's kernel_scratch.
#include <math.h>
#include <stdlib.h>

#define ROWS 64

// Two [ROWS, T] blocks in the scratch (scores/probabilities and their gradients), and at least
// `extra` floats, grown as needed.
static float* score_blocks(kernel_scratch* s, int T, size_t extra) {
  size_t need = (size_t)2 * ROWS * T;
  if (need < extra) need = extra;
  if (need > s->attention_len) {
    free(s->attention);
    s->attention = malloc(need * sizeof(float));
    s->attention_len = s->attention ? need : 0;
  }
  return s->attention;
}

// Backward's P[r, 0..n) for query row i0+r from scores S: exp(S·scale − lse), masked past the diagonal.
static void probabilities(float* P, int ldp, int rows, int n, int i0, float scale, const float* lse) {
  for (int r = 0; r < rows; r++) {
    float* p = P + (size_t)r * ldp;
    int last = i0 + r;  // the causal mask: keys 0..last
    for (int j = 0; j <= last; j++) p[j] = expf(p[j] * scale - lse[i0 + r]);
    for (int j = last + 1; j < n; j++) p[j] = 0.0f;
  }
}

// One attention call's arguments, shared by its tasks.
typedef struct {
  float *out, *lse, *dq, *dk, *dv;
  const float *q, *k, *v, *dout, *o;
  int B, T, H, Hkv, dh, units, tasks;
  int failed;
} attention_job;

// Units [lo, hi) of task t (contiguous, as even as they come).
static void task_range(const attention_job* j, int t, int* lo, int* hi) {
  *lo = (int)((long long)j->units * t / j->tasks);
  *hi = (int)((long long)j->units * (t + 1) / j->tasks);
}

// Tasks for `units` independent pieces of attention: one per thread, fewer for small calls.
static int attention_tasks(const kernel_context* ctx, int units, int B, int T, int H, int dh) {
  return task_count(ctx, (double)B * H * T * T * dh, units);
}

// Query row i of one (sequence, head) as llama.cpp computes it without flash attention over an F32 KV
// cache (llama-graph.cpp build_attn_mha, ggml-cpu ops.cpp soft_max): each score is ggml_vec_dot_f32
// (K·Q's query side is a permuted view, so ggml's mul_mat takes its vec_dot path), scaled by `scale`
// on its own; the row's exponentials by ggml_v_expf over chunks of `lanes` positions from 0, each
// chunk summed by hsum's tree into a double; the probabilities times (float)(1/sum); and each output
// value P·V in tinyBLAS's lanes over positions (V is stored transposed and P is contiguous, so that
// mul_mat is tinyBLAS's: a prompt of 2 tokens or more). Positions past i are masked: exp gives 0 and
// they add nothing. `acc` holds lanes·dh floats, `p` i + lanes. fp-contract off: ggml rounds the
// scaled score before subtracting the max.
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
static void ggml_order_row(float* out, float* lse, const float* q, const float* kb, const float* vb, int ldk, int i, int dh,
                           float scale, int lanes, float* p, float* acc) {
  float max = -INFINITY;
  for (int c = 0; c <= i; c++) {
    p[c] = float_vec_dot(kb + (size_t)c * ldk, q, dh, lanes) * scale;
    if (p[c] > max) max = p[c];
  }
  const int n = (i / lanes + 1) * lanes;
  for (int c = i + 1; c < n; c++) p[c] = 0.0f;
  double sum = 0;
  for (int c0 = 0; c0 < n; c0 += lanes) {
    for (int c = c0; c < c0 + lanes && c <= i; c++) p[c] = ggml_expf(p[c] - max, lanes);
    sum += (double)lanes_sum(p + c0, lanes);
  }
  const float inv = (float)(1.0 / sum);
  memset(acc, 0, (size_t)lanes * dh * sizeof(float));
  for (int c = 0; c <= i; c++) {
    const float pc = p[c] * inv;
    float* a = acc + (size_t)(c % lanes) * dh;
    const float* v = vb + (size_t)c * ldk;
    for (int d = 0; d < dh; d++) a[d] = fmaf(v[d], pc, a[d]);
  }
  float lane[16];
  for (int d = 0; d < dh; d++) {
    for (int l = 0; l < lanes; l++) lane[l] = acc[(size_t)l * dh + d];
    out[d] = lanes_sum(lane, lanes);
  }
  *lse = max + logf((float)sum);
}

#ifdef HAVE_GGML_V_EXPF16
// ggml_order_row where the lanes are 16 (AVX-512 builds), in AVX-512 registers: the same operations
// in the same order. `acc` holds 16·dh floats (dh a multiple of 16), `p` i + 16.
__attribute__((target("avx512f,avx512dq"))) static void ggml_order_row16(float* out, float* lse, const float* q, const float* kb,
                                                                         const float* vb, int ldk, int i, int dh, float scale,
                                                                         float* p, float* acc) {
  const int np = dh & ~63;
  float max = -INFINITY;
  for (int c = 0; c <= i; c++) {
    const float* k = kb + (size_t)c * ldk;
    __m512 sum[4] = {_mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps(), _mm512_setzero_ps()};
    for (int l = 0; l < np; l += 64)
      for (int s = 0; s < 4; s++) sum[s] = _mm512_fmadd_ps(_mm512_loadu_ps(q + l + 16 * s), _mm512_loadu_ps(k + l + 16 * s), sum[s]);
    float lanes[16];
    _mm512_storeu_ps(lanes, _mm512_add_ps(_mm512_add_ps(sum[0], sum[2]), _mm512_add_ps(sum[1], sum[3])));
    float total = lanes_sum(lanes, 16);
    for (int l = np; l < dh; l++) total += q[l] * k[l];
    p[c] = total * scale;
    if (p[c] > max) max = p[c];
  }
  const int n = (i / 16 + 1) * 16;
  for (int c = i + 1; c < n; c++) p[c] = -INFINITY;
  double sum = 0;
  const __m512 vmax = _mm512_set1_ps(max);
  for (int c0 = 0; c0 < n; c0 += 16) {
    const __m512 e = ggml_v_expf16(_mm512_sub_ps(_mm512_loadu_ps(p + c0), vmax));
    _mm512_storeu_ps(p + c0, e);
    float lanes[16];
    _mm512_storeu_ps(lanes, e);
    sum += (double)lanes_sum(lanes, 16);
  }
  const float inv = (float)(1.0 / sum);
  for (int l = 0; l < 16 * dh; l += 16) _mm512_storeu_ps(acc + l, _mm512_setzero_ps());
  for (int c = 0; c <= i; c++) {
    const __m512 pc = _mm512_set1_ps(p[c] * inv);
    float* a = acc + (size_t)(c % 16) * dh;
    const float* v = vb + (size_t)c * ldk;
    for (int d = 0; d < dh; d += 16) _mm512_storeu_ps(a + d, _mm512_fmadd_ps(_mm512_loadu_ps(v + d), pc, _mm512_loadu_ps(a + d)));
  }
  // lanes_sum's tree over the 16 lane rows, for 16 values of d at a time.
  for (int d = 0; d < dh; d += 16) {
    __m512 t[8];
    for (int l = 0; l < 8; l++) t[l] = _mm512_add_ps(_mm512_loadu_ps(acc + (size_t)(l + 8) * dh + d), _mm512_loadu_ps(acc + (size_t)l * dh + d));
    const __m512 u0 = _mm512_add_ps(t[4], t[0]), u1 = _mm512_add_ps(t[5], t[1]), u2 = _mm512_add_ps(t[6], t[2]), u3 = _mm512_add_ps(t[7], t[3]);
    _mm512_storeu_ps(out + d, _mm512_add_ps(_mm512_add_ps(u0, u2), _mm512_add_ps(u1, u3)));
  }
  *lse = max + logf((float)sum);
}
#endif
#pragma GCC pop_options

// Forward of the (sequence, head) pairs [lo, hi), pair b·H + h.
static void forward_task(void* arg, int t, kernel_scratch* s) {
  attention_job* j = arg;
  const int T = j->T, H = j->H, Hkv = j->Hkv, dh = j->dh;
  // On CPUs where ggml's attention has an order reproduced here, rows take it (a row needs T + 16
  // scores and 16·dh accumulators).
  const int lanes = cpu_float_order().lanes;
  float *S = score_blocks(s, T, lanes ? (size_t)T + 16 + (size_t)16 * dh : 0), *pack = gemm_pack(s);
  if (!S || !pack) { j->failed = 1; return; }
  const float scale = 1.0f / sqrtf((float)dh);
  const int ldq = H * dh, ldk = Hkv * dh;
  int lo, hi;
  task_range(j, t, &lo, &hi);
  for (int pair = lo; pair < hi; pair++) {
    const int b = pair / H, h = pair % H, g = h / (H / Hkv);
    const float* kb = j->k + (size_t)b * T * ldk + g * dh;
    const float* vb = j->v + (size_t)b * T * ldk + g * dh;
    float* rowLse = j->lse + ((size_t)b * H + h) * T;
    if (lanes) {
      for (int i = 0; i < T; i++) {
        const size_t row = ((size_t)b * T + i) * ldq + h * dh;
#ifdef HAVE_GGML_V_EXPF16
        if (lanes == 16 && dh % 16 == 0) {
          ggml_order_row16(j->out + row, rowLse + i, j->q + row, kb, vb, ldk, i, dh, scale, S, S + T + 16);
          continue;
        }
#endif
        ggml_order_row(j->out + row, rowLse + i, j->q + row, kb, vb, ldk, i, dh, scale, lanes, S, S + T + 16);
      }
      continue;
    }
    for (int i0 = 0; i0 < T; i0 += ROWS) {
      const int rows = T - i0 < ROWS ? T - i0 : ROWS, n = i0 + rows;
      const float* qb = j->q + ((size_t)b * T + i0) * ldq + h * dh;
      gemm(pack, 0, 1, rows, n, dh, qb, ldq, kb, ldk, NULL, S, n, 0);  // S[rows,n] = Q·Kᵀ
      for (int r = 0; r < rows; r++) {  // softmax of each row, keeping its log-sum-exp
        float* p = S + (size_t)r * n;
        int last = i0 + r;
        float max = -INFINITY, z = 0.0f;
        for (int c = 0; c <= last; c++) if (p[c] * scale > max) max = p[c] * scale;
        for (int c = 0; c <= last; c++) z += p[c] = expf(p[c] * scale - max);
        for (int c = 0; c <= last; c++) p[c] /= z;
        for (int c = last + 1; c < n; c++) p[c] = 0.0f;
        rowLse[i0 + r] = max + logf(z);
      }
      gemm(pack, 0, 0, rows, dh, n, S, n, vb, ldk, NULL, j->out + ((size_t)b * T + i0) * ldq + h * dh, ldq, 0);  // O = P·V
    }
  }
}

// Split over (sequence, head) pairs: each writes only its own rows of out and lse.
static int attention_forward(kernel_context* ctx, float* out, float* lse, const float* q, const float* k, const float* v,
                             int B, int T, int H, int Hkv, int dh) {
  if (B == 0 || T == 0) return 0;
  attention_job j = {.out = out, .lse = lse, .q = q, .k = k, .v = v, .B = B, .T = T, .H = H, .Hkv = Hkv, .dh = dh, .units = B * H};
  j.tasks = attention_tasks(ctx, j.units, B, T, H, dh);
  ctx->run(ctx->pool, j.tasks, forward_task, &j);
  return j.failed ? -1 : 0;
}

// Backward of the (sequence, KV head) pairs [lo, hi), pair b·Hkv + g: every query head of the group,
// in order, so dk and dv of the pair sum over its heads as a single thread would.
static void backward_task(void* arg, int t, kernel_scratch* s) {
  attention_job* j = arg;
  const int T = j->T, H = j->H, Hkv = j->Hkv, dh = j->dh, group = H / Hkv;
  float *P = score_blocks(s, T, 0), *pack = gemm_pack(s);
  if (!P || !pack) { j->failed = 1; return; }
  float* dS = P + (size_t)ROWS * T;
  const float scale = 1.0f / sqrtf((float)dh);
  const int ldq = H * dh, ldk = Hkv * dh;
  int lo, hi;
  task_range(j, t, &lo, &hi);
  for (int pair = lo; pair < hi; pair++)
    for (int h = (pair % Hkv) * group; h < (pair % Hkv + 1) * group; h++) {
      const int b = pair / Hkv, g = pair % Hkv;
      const size_t kvOff = (size_t)b * T * ldk + g * dh;
      const float* rowLse = j->lse + ((size_t)b * H + h) * T;
      for (int i0 = 0; i0 < T; i0 += ROWS) {
        const int rows = T - i0 < ROWS ? T - i0 : ROWS, n = i0 + rows;
        const size_t qOff = ((size_t)b * T + i0) * ldq + h * dh;
        gemm(pack, 0, 1, rows, n, dh, j->q + qOff, ldq, j->k + kvOff, ldk, NULL, P, n, 0);
        probabilities(P, n, rows, n, i0, scale, rowLse);
        gemm(pack, 0, 1, rows, n, dh, j->dout + qOff, ldq, j->v + kvOff, ldk, NULL, dS, n, 0);  // dP = dO·Vᵀ
        for (int r = 0; r < rows; r++) {
          // Σ_j p_j·dp_j = dO_i·O_i: the softmax Jacobian's shared term.
          const float* o = j->o + qOff + (size_t)r * ldq;
          const float* d = j->dout + qOff + (size_t)r * ldq;
          float dot = 0.0f;
          for (int c = 0; c < dh; c++) dot += d[c] * o[c];
          float* p = P + (size_t)r * n;
          float* ds = dS + (size_t)r * n;
          for (int c = 0; c < n; c++) ds[c] = p[c] * (ds[c] - dot) * scale;
        }
        gemm(pack, 1, 0, n, dh, rows, P, n, j->dout + qOff, ldq, NULL, j->dv + kvOff, ldk, 1);  // dV += Pᵀ·dO
        gemm(pack, 0, 0, rows, dh, n, dS, n, j->k + kvOff, ldk, NULL, j->dq + qOff, ldq, 0);    // dQ = dS·K
        gemm(pack, 1, 0, n, dh, rows, dS, n, j->q + qOff, ldq, NULL, j->dk + kvOff, ldk, 1);    // dK += dSᵀ·Q
      }
    }
}

// Split over (sequence, KV head) pairs, so no two tasks add into the same rows of dk and dv.
static int attention_backward(kernel_context* ctx, float* dq, float* dk, float* dv, const float* dout, const float* q,
                              const float* k, const float* v, const float* out, const float* lse, int B, int T, int H,
                              int Hkv, int dh) {
  if (B == 0 || T == 0) return 0;
  memset(dk, 0, (size_t)B * T * Hkv * dh * sizeof(float));
  memset(dv, 0, (size_t)B * T * Hkv * dh * sizeof(float));
  attention_job j = {.dq = dq, .dk = dk, .dv = dv, .lse = (float*)lse, .q = q, .k = k, .v = v, .dout = dout, .o = out,
                     .B = B, .T = T, .H = H, .Hkv = Hkv, .dh = dh, .units = B * Hkv};
  j.tasks = attention_tasks(ctx, j.units, B, T, H, dh);
  ctx->run(ctx->pool, j.tasks, backward_task, &j);
  return j.failed ? -1 : 0;
}
