// Single-precision GEMM, BLIS-style: pack a KC×NC block of op(B) into NR-wide column panels and
// an MC×KC block of op(A) into MR-tall row panels, then run an MR×NR register-tile microkernel
// over them. Packing makes every transpose variant the same contiguous inner loop and keeps the
// working set in cache (B panel in L1, A block in L2). No -ffast-math: each C element sums over k
// in order within a KC block, so results differ from the TypeScript path only by float32 rounding
// (and FMA contraction on the x86-64-v3 build). The packed blocks live in the caller's
// kernel_scratch, so threads multiplying at the same time never share them.
#include <stdlib.h>
#include <string.h>

#define MR 6
#define NR 16
#define MC 96
#define KC 256
#define NC 512

typedef float v8 __attribute__((vector_size(32)));

static inline v8 load8(const float* p) { v8 v; memcpy(&v, p, sizeof v); return v; }
static inline void store8(float* p, v8 v) { memcpy(p, &v, sizeof v); }

// The scratch's packing space: an MC×KC block of A, a KC×NC block of B, then NR×KC floats for a
// packed weight's decoded rows (≥ NC, one row segment), 64-byte aligned.
#define PACKED_B_OFFSET (MC * KC)
#define DECODED_OFFSET (MC * KC + KC * NC)
static float* gemm_pack(kernel_scratch* s) {
  if (!s->pack) s->pack = aligned_alloc(64, (size_t)(MC * KC + KC * NC + NR * KC) * sizeof(float));
  return s->pack;
}

// packedA[(panel*kc + k)*MR + r] = op(A)[i0 + panel*MR + r, k0 + k], zero past the last row.
static void pack_a(float* packedA, int transA, const float* A, int lda, int i0, int mc, int k0, int kc) {
  for (int p = 0; p * MR < mc; p++) {
    float* dst = packedA + (size_t)p * kc * MR;
    for (int r = 0; r < MR; r++) {
      int i = p * MR + r;
      if (i >= mc) { for (int k = 0; k < kc; k++) dst[k * MR + r] = 0.0f; continue; }
      if (transA) for (int k = 0; k < kc; k++) dst[k * MR + r] = A[(size_t)(k0 + k) * lda + i0 + i];
      else { const float* a = A + (size_t)(i0 + i) * lda + k0; for (int k = 0; k < kc; k++) dst[k * MR + r] = a[k]; }
    }
  }
}

// packedB[(panel*kc + k)*NR + j] = op(B)[k0 + k, j0 + panel*NR + j], zero past the last column.
static void pack_b(float* packedB, int transB, const float* B, int ldb, int k0, int kc, int j0, int nc) {
  for (int p = 0; p * NR < nc; p++) {
    float* dst = packedB + (size_t)p * kc * NR;
    int width = nc - p * NR < NR ? nc - p * NR : NR;
    for (int k = 0; k < kc; k++) {
      float* d = dst + k * NR;
      if (transB) for (int j = 0; j < width; j++) d[j] = B[(size_t)(j0 + p * NR + j) * ldb + k0 + k];
      else memcpy(d, B + (size_t)(k0 + k) * ldb + j0 + p * NR, width * sizeof(float));
      for (int j = width; j < NR; j++) d[j] = 0.0f;
    }
  }
}

// pack_b's layout from a packed weight, decoded block by block into `decoded`: op(B)[k,j] = W[j,k]
// (transB: B = Wᵀ) or W[k,j]. k0 and j0 are multiples of KC and NC (and col0 of the block size), so
// whole blocks of any type.
static void pack_b_weight(float* packedB, float* decoded, const packed_weight* w, int transB, int k0, int kc, int j0, int nc) {
  for (int p = 0; p * NR < nc; p++) {
    float* dst = packedB + (size_t)p * kc * NR;
    int width = nc - p * NR < NR ? nc - p * NR : NR;
    if (transB) {
      for (int j = 0; j < width; j++)
        decode_segment(w->type, w->data + (size_t)(j0 + p * NR + j) * w->row_bytes, w->col0 + k0, kc, decoded + (size_t)j * kc);
      for (int k = 0; k < kc; k++) {
        float* d = dst + k * NR;
        for (int j = 0; j < width; j++) d[j] = decoded[(size_t)j * kc + k];
        for (int j = width; j < NR; j++) d[j] = 0.0f;
      }
    }
  }
  if (transB) return;
  for (int k = 0; k < kc; k++) {
    decode_segment(w->type, w->data + (size_t)(k0 + k) * w->row_bytes, w->col0 + j0, nc, decoded);
    for (int p = 0; p * NR < nc; p++) {
      float* d = packedB + ((size_t)p * kc + k) * NR;
      int width = nc - p * NR < NR ? nc - p * NR : NR;
      memcpy(d, decoded + p * NR, width * sizeof(float));
      for (int j = width; j < NR; j++) d[j] = 0.0f;
    }
  }
}

// C[mr,nr] (+)= Apanel[kc,MR]ᵀ-as-rows · Bpanel[kc,NR] with 12 vector accumulators.
static void microkernel(int kc, const float* restrict a, const float* restrict b, float* restrict C, int ldc,
                        int mr, int nr, int accumulate) {
  v8 c[MR][2];
  for (int r = 0; r < MR; r++) c[r][0] = c[r][1] = (v8){0};
  for (int k = 0; k < kc; k++) {
    v8 b0 = load8(b), b1 = load8(b + 8);
#pragma GCC unroll 6
    for (int r = 0; r < MR; r++) { c[r][0] += a[r] * b0; c[r][1] += a[r] * b1; }
    a += MR;
    b += NR;
  }
  if (mr == MR && nr == NR) {
    for (int r = 0; r < MR; r++) {
      float* row = C + (size_t)r * ldc;
      if (accumulate) { store8(row, load8(row) + c[r][0]); store8(row + 8, load8(row + 8) + c[r][1]); }
      else { store8(row, c[r][0]); store8(row + 8, c[r][1]); }
    }
    return;
  }
  float tile[MR][NR];
  for (int r = 0; r < MR; r++) { store8(tile[r], c[r][0]); store8(tile[r] + 8, c[r][1]); }
  for (int r = 0; r < mr; r++)
    for (int j = 0; j < nr; j++) C[(size_t)r * ldc + j] = accumulate ? C[(size_t)r * ldc + j] + tile[r][j] : tile[r][j];
}

// sgemm on packing space from gemm_pack (never NULL here); op(B) comes from the packed weight w
// instead of B when w is not NULL. Kept out of line: inlined into attention_forward (GCC 12, -O3)
// it made that ~15% slower.
__attribute__((noinline))
static void gemm(float* pack, int transA, int transB, int M, int N, int K, const float* A, int lda, const float* B,
                 int ldb, const packed_weight* w, float* C, int ldc, int accumulate) {
  float *packedA = pack, *packedB = pack + PACKED_B_OFFSET;
  if (K == 0) {
    if (!accumulate) for (int i = 0; i < M; i++) memset(C + (size_t)i * ldc, 0, N * sizeof(float));
    return;
  }
  for (int j0 = 0; j0 < N; j0 += NC) {
    int nc = N - j0 < NC ? N - j0 : NC;
    for (int k0 = 0; k0 < K; k0 += KC) {
      int kc = K - k0 < KC ? K - k0 : KC;
      int acc = accumulate || k0 > 0;  // later K blocks add to what the first one wrote
      if (w) pack_b_weight(packedB, pack + DECODED_OFFSET, w, transB, k0, kc, j0, nc);
      else pack_b(packedB, transB, B, ldb, k0, kc, j0, nc);
      for (int i0 = 0; i0 < M; i0 += MC) {
        int mc = M - i0 < MC ? M - i0 : MC;
        pack_a(packedA, transA, A, lda, i0, mc, k0, kc);
        for (int jp = 0; jp < nc; jp += NR)
          for (int ip = 0; ip < mc; ip += MR)
            microkernel(kc, packedA + (size_t)(ip / MR) * kc * MR, packedB + (size_t)(jp / NR) * kc * NR,
                        C + (size_t)(i0 + ip) * ldc + j0 + jp, ldc,
                        mc - ip < MR ? mc - ip : MR, nc - jp < NR ? nc - jp : NR, acc);
      }
    }
  }
}

// One gemm split between tasks by rows of C (units of MR) or columns (units of NR, or of a block of a
// weight whose columns are its values). Each task runs gemm on its own rows or columns with its own
// packing space; an element of C sums over k in the same KC blocks in the same order whichever task
// computes it, so the bits do not depend on the split.
typedef struct {
  int transA, transB, M, N, K, lda, ldb, ldc, accumulate;
  const float *A, *B;
  const packed_weight* w;
  float* C;
  int by_rows, unit, units, tasks;
  int failed;  // set by a task that could not allocate (before it wrote anything)
} gemm_job;

static void gemm_task(void* arg, int t, kernel_scratch* s) {
  gemm_job* j = arg;
  float* pack = gemm_pack(s);
  if (!pack) { j->failed = 1; return; }
  int total = j->by_rows ? j->M : j->N;
  int lo = (int)((long long)j->units * t / j->tasks) * j->unit;
  int hi = (int)((long long)j->units * (t + 1) / j->tasks) * j->unit;
  if (hi > total) hi = total;
  if (lo >= hi) return;
  if (j->by_rows) {
    const float* A = j->transA ? j->A + lo : j->A + (size_t)lo * j->lda;
    gemm(pack, j->transA, j->transB, hi - lo, j->N, j->K, A, j->lda, j->B, j->ldb, j->w, j->C + (size_t)lo * j->ldc, j->ldc, j->accumulate);
    return;
  }
  // Columns [lo, hi) of op(B): rows of W when op(B) = Wᵀ, else values of each row.
  packed_weight part;
  const packed_weight* w = NULL;
  if (j->w) {
    part = *j->w;
    if (j->transB) { part.data += (size_t)lo * part.row_bytes; part.rows = hi - lo; }
    else { part.col0 += lo; part.cols = hi - lo; }
    w = &part;
  }
  const float* B = !j->B ? NULL : j->transB ? j->B + (size_t)lo * j->ldb : j->B + lo;
  gemm(pack, j->transA, j->transB, j->M, hi - lo, j->K, j->A, j->lda, B, j->ldb, w, j->C + lo, j->ldc, j->accumulate);
}

// Work below this many multiply-adds per task stays on fewer threads: waking the pool costs more.
#define MIN_TASK_MADDS (1 << 20)

static int task_count(const kernel_context* ctx, double madds, int units) {
  int tasks = ctx->threads < units ? ctx->threads : units;
  if (madds / MIN_TASK_MADDS < tasks) tasks = (int)(madds / MIN_TASK_MADDS);
  return tasks < 1 ? 1 : tasks;
}

// gemm on the context's threads. Splits columns when each task gets several panels, so each thread
// packs (and decodes) only its own part of B; else rows, each thread packing all of B.
static int gemm_threads(kernel_context* ctx, int transA, int transB, int M, int N, int K, const float* A, int lda,
                        const float* B, int ldb, const packed_weight* w, float* C, int ldc, int accumulate) {
  gemm_job j = {transA, transB, M, N, K, lda, ldb, ldc, accumulate, A, B, w, C, 0, NR, 0, 1, 0};
  if (w && !transB) {  // columns are values of W's rows: cut at whole blocks
    int size = 1, bytes;
    weight_block(w->type, &size, &bytes);
    if (size > j.unit) j.unit = size;
  }
  j.units = (N + j.unit - 1) / j.unit;
  double madds = (double)M * N * K;
  j.tasks = task_count(ctx, madds, j.units);
  if (j.units < 4 * j.tasks) {
    j.by_rows = 1;
    j.unit = MR;
    j.units = (M + MR - 1) / MR;
    j.tasks = task_count(ctx, madds, j.units);
  }
  ctx->run(ctx->pool, j.tasks, gemm_task, &j);
  return j.failed ? -1 : 0;
}

static int sgemm(kernel_context* ctx, int transA, int transB, int M, int N, int K, const float* A, int lda,
                 const float* B, int ldb, float* C, int ldc, int accumulate) {
  return gemm_threads(ctx, transA, transB, M, N, K, A, lda, B, ldb, NULL, C, ldc, accumulate);
}

// Rows [lo, hi) of X rounded for W's type, per task; for Q4_1/Q5_1 also their Q8_1 sum errors.
typedef struct { const packed_weight* w; const float* X; float* out; float* sum_errors; int M, tasks; } round_job;

static void round_task(void* arg, int t, kernel_scratch* s) {
  round_job* j = arg;
  int lo = (int)((long long)j->M * t / j->tasks), hi = (int)((long long)j->M * (t + 1) / j->tasks);
  size_t cols = j->w->cols;
  round_activations(j->w->type, j->X + lo * cols, j->out + lo * cols, (hi - lo) * cols);
  if (j->sum_errors) q8_1_sum_errors(j->X + lo * cols, j->sum_errors + lo * cols / 32, (hi - lo) * cols);
}

// Q8_0 and Q5_0 weights: X's rows quantized to Q8_0 blocks (q then d), then each element as ggml's
// int8_dot.
typedef struct {
  const packed_weight* w;
  const float* X;
  int8_t* q;
  float* d;
  float* xs;  // Q4_1/Q5_1: Q8_1's s of each activation block, which the weight's mins multiply; else NULL
  float* C;
  int M, accumulate, units, tasks;
  int amx;     // block by block as ggml's AMX and repacked Q4_0 gemms add (int8_dot_blocks), not tinyBLAS's
  int failed;  // set by a task that could not allocate (before it wrote anything)
} int8_job;

// Values of a row the int8 path takes: 4 decoded weight rows (q and d) must fit the packing space.
#define INT8_MAX_COLS ((MC * KC + KC * NC + NR * KC) * 4 / 5)

static void int8_quantize_task(void* arg, int t, kernel_scratch* s) {
  int8_job* j = arg;
  const size_t blocks = j->w->cols / 32;
  const size_t lo = (size_t)j->M * t / j->tasks * blocks, hi = (size_t)j->M * (t + 1) / j->tasks * blocks;
  for (size_t b = lo; b < hi; b++) j->d[b] = q8_block(j->X + 32 * b, j->q + 32 * b, j->xs ? j->xs + b : NULL);
}

static inline void int8_store(const int8_job* j, int i, int r, float v) {
  float* c = j->C + (size_t)i * j->w->rows + r;
  *c = j->accumulate ? *c + v : v;
}

// Row r0 + r of C's row i: the integer blocks' sum v, plus for Q4_1/Q5_1 the mins' share as ggml's
// vec_dot adds it after its lanes' hsum: summs, each block's m·s added in turn (one FMA each).
static inline void int8_put(const int8_job* j, const float* wm, int i, int r0, int r, float v) {
  if (j->xs) {
    const int nb = j->w->cols / 32;
    const float *m = wm + (size_t)r * nb, *xs = j->xs + (size_t)i * nb;
    float summs = 0.0f;
    for (int b = 0; b < nb; b++) summs = fmaf(m[b], xs[b], summs);
    v += summs;
  }
  int8_store(j, i, r0 + r, v);
}

// Rows of W in units of 4, decoded into the task's packing space and kept in cache while every row of
// X passes them, in tiles of 2 rows of W by XR of X; the edges element by element (the same bits).
static void int8_matmul_task(void* arg, int t, kernel_scratch* s) {
  int8_job* j = arg;
  const packed_weight* w = j->w;
  const int cols = w->cols, nb = cols / 32, lo = (int)((long long)j->units * t / j->tasks) * 4;
  int hi = (int)((long long)j->units * (t + 1) / j->tasks) * 4;
  if (hi > w->rows) hi = w->rows;
  float* pack = gemm_pack(s);
  if (!pack) { j->failed = 1; return; }
  float* wd = pack;
  int8_t* wq = (int8_t*)(pack + 4 * nb);
  float* wm = pack + 4 * nb + cols;  // Q4_1/Q5_1's mins, after the 4 rows' integers
  for (int r0 = lo; r0 < hi; r0 += 4) {
    const int n = r0 + 4 < hi ? 4 : hi - r0, pairs = n & ~1;
    for (int r = 0; r < n; r++) {
      const uint8_t* row = w->data + (size_t)(r0 + r) * w->row_bytes;
      int8_weight_blocks(w->type, row, nb, wq + (size_t)r * cols, wd + r * nb);
      if (j->xs) block_mins(w->type, row, nb, wm + r * nb);
    }
    if (j->amx) {
      int i = 0;
#ifdef __AVX2__
      for (; i + 8 <= j->M; i += 8) {
        const int8_t* xq[8];
        const float* xd[8];
        for (int b = 0; b < 8; b++) xq[b] = j->q + (size_t)(i + b) * cols, xd[b] = j->d + (size_t)(i + b) * nb;
        for (int r = 0; r < n; r++) {
          float out[8];
          int8_dot_blocks_x8(wq + (size_t)r * cols, wd + r * nb, xq, xd, nb, out);
          for (int b = 0; b < 8; b++) int8_put(j, wm, i + b, r0, r, out[b]);
        }
      }
#endif
      for (; i < j->M; i++)
        for (int r = 0; r < n; r++)
          int8_put(j, wm, i, r0, r, int8_dot_blocks(wq + (size_t)r * cols, wd + r * nb, j->q + (size_t)i * cols, j->d + (size_t)i * nb, nb));
      continue;
    }
    int i = 0;
    for (; i + XR <= j->M; i += XR) {
      const int8_t* xq[XR];
      const float* xd[XR];
      for (int b = 0; b < XR; b++) xq[b] = j->q + (size_t)(i + b) * cols, xd[b] = j->d + (size_t)(i + b) * nb;
      for (int r = 0; r < pairs; r += 2) {
        const int8_t* q2[2] = {wq + (size_t)r * cols, wq + (size_t)(r + 1) * cols};
        const float* d2[2] = {wd + r * nb, wd + (r + 1) * nb};
        float out[2][XR];
        int8_dot_2xR(q2, d2, xq, xd, nb, out);
        for (int a = 0; a < 2; a++)
          for (int b = 0; b < XR; b++) int8_put(j, wm, i + b, r0, r + a, out[a][b]);
      }
      for (int r = pairs; r < n; r++)
        for (int b = 0; b < XR; b++) int8_put(j, wm, i + b, r0, r, int8_dot(wq + (size_t)r * cols, wd + r * nb, xq[b], xd[b], nb));
    }
    for (; i < j->M; i++)
      for (int r = 0; r < n; r++)
        int8_put(j, wm, i, r0, r, int8_dot(wq + (size_t)r * cols, wd + r * nb, j->q + (size_t)i * cols, j->d + (size_t)i * nb, nb));
  }
}

static int float_lanes_matmul(kernel_context* ctx, const packed_weight* w, float* X, int M, float* C, int accumulate);
static int amx_f16_order(const packed_weight* w);
static int int8_block_order(const packed_weight* w);
static int int8_mins_order(const packed_weight* w);
static int kquant_matmul(kernel_context* ctx, const packed_weight* w, const float* X, int M, float* C, int accumulate);

static int matmul_xwt(kernel_context* ctx, const packed_weight* w, const float* X, int M, float* C, int accumulate) {
  const int kquant = kquant_matmul(ctx, w, X, M, C, accumulate);  // K-quants in ggml's integer order
  if (kquant) return kquant < 0 ? -1 : 0;
  kernel_scratch* s = &ctx->scratch[0];
  const size_t n = (size_t)M * w->cols;
  const int round = w->type != GGML_F32 && !amx_f16_order(w) && n > 0;
  // Q4_1/Q5_1 take their mins against Q8_1's F16 block sums: after the product, add
  // C += E·minsᵀ with E[M, cols/32] the sums' errors and mins[rows, cols/32] the weight's.
  const int mins = round && (w->type == GGML_Q4_1 || w->type == GGML_Q5_1);
  const size_t blocks = w->cols / 32, need = n + (mins ? (M + (size_t)w->rows) * blocks : 0);
  if (round && need > s->rounded_len) {
    free(s->rounded);
    s->rounded = malloc(need * sizeof(float));
    s->rounded_len = s->rounded ? need : 0;
  }
  if (round && !s->rounded) return -1;
  const int amx = int8_block_order(w);
  const int with_mins = int8_mins_order(w);
  if (round && (w->type == GGML_Q8_0 || w->type == GGML_Q5_0 || amx || with_mins) && w->col0 == 0 && w->cols <= INT8_MAX_COLS) {
    // q: n bytes, then d: one float per block, then (Q4_1/Q5_1) Q8_1's s: one float per block
    int8_job j = {w, X, (int8_t*)s->rounded, s->rounded + n / 4, with_mins ? s->rounded + n / 4 + n / 32 : NULL, C, M, accumulate, (w->rows + 3) / 4, 0, amx, 0};
    j.tasks = task_count(ctx, (double)n * 16, M);
    ctx->run(ctx->pool, j.tasks, int8_quantize_task, &j);
    j.tasks = task_count(ctx, (double)n * w->rows, j.units);
    ctx->run(ctx->pool, j.tasks, int8_matmul_task, &j);
    return j.failed ? -1 : 0;
  }
  const float* A = X;
  float *errors = mins ? s->rounded + n : NULL, *block_min = mins ? errors + (size_t)M * blocks : NULL;
  if (round) {  // rows round independently; ~16 values per multiply-add's worth of time
    round_job r = {w, X, s->rounded, errors, M, task_count(ctx, (double)n * 16, M)};
    ctx->run(ctx->pool, r.tasks, round_task, &r);
    A = s->rounded;
  }
  // F32 and BF16 in llama.cpp's summation order where it is reproduced (float_lanes.c). It writes
  // to A only to permute a BF16 weight's rounded X, which is this call's scratch, never the caller's X.
  const int lanes = float_lanes_matmul(ctx, w, (float*)A, M, C, accumulate);
  if (lanes) return lanes < 0 ? -1 : 0;
  int status = gemm_threads(ctx, 0, 1, M, w->rows, w->cols, A, w->cols, NULL, 0, w, C, w->rows, accumulate);
  if (status != 0 || !mins || w->rows == 0) return status;
  for (int r = 0; r < w->rows; r++) block_mins(w->type, w->data + (size_t)r * w->row_bytes, blocks, block_min + r * blocks);
  return gemm_threads(ctx, 0, 1, M, w->rows, blocks, errors, blocks, block_min, blocks, NULL, C, w->rows, 1);
}

static int matmul_dyw(kernel_context* ctx, const packed_weight* w, const float* dY, int M, float* C, int accumulate) {
  return gemm_threads(ctx, 0, 0, M, w->cols, w->rows, dY, w->rows, NULL, 0, w, C, w->cols, accumulate);
}

static void gather_rows(const packed_weight* w, const int* ids, int n, float* out) {
  for (int i = 0; i < n; i++) decode_segment(w->type, w->data + (size_t)ids[i] * w->row_bytes, 0, w->cols, out + (size_t)i * w->cols);
}
