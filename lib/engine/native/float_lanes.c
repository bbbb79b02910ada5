// F32 and BF16 weights multiplied in llama.cpp's order on x86, so a trainer's forward over such a base
// (and over a LoRA adapter, whose A and B are F32) sums as llama.cpp serves it, to the bit.
//
// ggml's CPU mul_mat hands these types to tinyBLAS (llamafile sgemm.cpp) when a row is whole chunks of
// its lanes and the weight's rows are a multiple of 4: each element of C adds its row pair's products by
// FMA into `lanes` float lanes (lane l takes values l, l + lanes, …), then sums the lanes in hsum's tree
// ((l + l⊕8) …, then (0+2)+(1+3)). Lanes are 16 where ggml's backend loader picks an AVX-512 build of
// libggml-cpu (skylakex … zen4), 8 on an AVX2 one. A BF16 weight on a CPU with AVX512-BF16 (cooperlake,
// zen4, sapphirerapids) takes VDPBF16PS instead: 16 lanes over chunks of 32, lane l adding value 2l+1,
// then 2l, by FMA (measured on zen4: all of 3.2M random cases). That is the plain 16-lane order over
// rows whose every chunk of 32 is permuted to [odd values, even values], which is how it runs here.
// Anything else (rows not whole chunks, rows of W not a multiple of 4): ggml falls back to its vec_dot,
// which for F32 is ggml_vec_dot_f32's order (float_vec_dot below) and for BF16 is left to gemm.c
// (off llama.cpp's last bit). A CPU without AVX2 runs neither (ggml's builds there have no tinyBLAS).
#include <math.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

typedef struct {
  int lanes;       // 16, 8, or 0: ggml does not use tinyBLAS on this CPU
  int bf16_pairs;  // BF16 weights go through VDPBF16PS
  int amx;         // ggml's sapphirerapids build (AMX): F16 weights go through its AVX-512 tinygemm
} float_order;

static float_order cpu_float_order(void) {
  static float_order order = {-1, 0};
  if (order.lanes >= 0) return order;
  float_order o = {0, 0, 0};
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  // ggml's skylakex build and every AVX-512 build after it need F, BW, DQ and VL.
  const int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                     __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  o.lanes = avx512 ? 16 : avx2 ? 8 : 0;
  o.bf16_pairs = avx512 && __builtin_cpu_supports("avx512bf16");
  // The features ggml's sapphirerapids build needs (its loader picks it where they all are):
  // AMX-TILE and AMX-INT8 are CPUID leaf 7's EDX bits 24 and 25.
  unsigned a, b, c, d;
  const int amx = __get_cpuid_count(7, 0, &a, &b, &c, &d) && (d >> 24 & 3) == 3;
  o.amx = amx && o.bf16_pairs && __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512vbmi");
#endif
  order = o;
  return order;
}

// Values per chunk a row must be whole chunks of for tinyBLAS to take a weight of `type`.
static int float_chunk(int type, float_order o) { return type == GGML_BF16 && o.bf16_pairs ? 32 : o.lanes; }

// Each chunk of 32 values as VDPBF16PS pairs them: values 1, 3, …, 31, then 0, 2, …, 30.
static void pair_permute(float* row, int n) {
  float chunk[32];
  for (int c = 0; c < n; c += 32) {
    for (int l = 0; l < 16; l++) chunk[l] = row[c + 2 * l + 1], chunk[16 + l] = row[c + 2 * l];
    memcpy(row + c, chunk, sizeof chunk);
  }
}

// hsum's tree over lanes (8 or 16, as tinyBLAS's hsum(__m256) and _mm512_reduce_add_ps).
static inline float lanes_sum(const float* acc, int lanes) {
  float t[8];
  for (int i = 0; i < 8; i++) t[i] = lanes == 16 ? acc[i + 8] + acc[i] : acc[i];
  const float u0 = t[4] + t[0], u1 = t[5] + t[1], u2 = t[6] + t[2], u3 = t[7] + t[3];
  return (u0 + u2) + (u1 + u3);
}

// out[a*2 + b] = Σ w_a·x_b in `lanes` FMA lanes, for rows w0, w1 and x0, x1 of k values (k whole lanes).
static void lanes_dot_2x2(const float* w0, const float* w1, const float* x0, const float* x1, int k, int lanes, float out[4]) {
#ifdef __FMA__
  __m256 lo[4], hi[4];
  for (int e = 0; e < 4; e++) lo[e] = hi[e] = _mm256_setzero_ps();
  for (int l = 0; l < k; l += lanes) {
    __m256 a0 = _mm256_loadu_ps(w0 + l), a1 = _mm256_loadu_ps(w1 + l), b0 = _mm256_loadu_ps(x0 + l), b1 = _mm256_loadu_ps(x1 + l);
    lo[0] = _mm256_fmadd_ps(a0, b0, lo[0]), lo[1] = _mm256_fmadd_ps(a0, b1, lo[1]);
    lo[2] = _mm256_fmadd_ps(a1, b0, lo[2]), lo[3] = _mm256_fmadd_ps(a1, b1, lo[3]);
    if (lanes == 8) continue;
    a0 = _mm256_loadu_ps(w0 + l + 8), a1 = _mm256_loadu_ps(w1 + l + 8), b0 = _mm256_loadu_ps(x0 + l + 8), b1 = _mm256_loadu_ps(x1 + l + 8);
    hi[0] = _mm256_fmadd_ps(a0, b0, hi[0]), hi[1] = _mm256_fmadd_ps(a0, b1, hi[1]);
    hi[2] = _mm256_fmadd_ps(a1, b0, hi[2]), hi[3] = _mm256_fmadd_ps(a1, b1, hi[3]);
  }
  for (int e = 0; e < 4; e++) {
    float acc[16];
    _mm256_storeu_ps(acc, lo[e]);
    _mm256_storeu_ps(acc + 8, hi[e]);
    out[e] = lanes_sum(acc, lanes);
  }
#else
  const float* w[2] = {w0, w1};
  const float* x[2] = {x0, x1};
  for (int e = 0; e < 4; e++) {
    float acc[16] = {0};
    for (int l = 0; l < k; l += lanes)
      for (int i = 0; i < lanes; i++) acc[i] = fmaf(w[e / 2][l + i], x[e % 2][l + i], acc[i]);
    out[e] = lanes_sum(acc, lanes);
  }
#endif
}

// ggml_vec_dot_f32 (vec.cpp) on x86: ARR = 4 vectors of `lanes` summing chunks of 4·lanes by FMA,
// reduced pairwise into the first, then across its lanes (the AVX-512 build: hsum's tree; the AVX2
// build: _mm_hadd_ps twice, (0+1)+(2+3) after folding the halves), then the leftovers one by one,
// each product rounded before it is added (fp-contract off).
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
static float float_vec_dot(const float* w, const float* x, int k, int lanes) {
  const int step = 4 * lanes, np = k & ~(step - 1);
  float sum[4][16] = {{0}};
  for (int i = 0; i < np; i += step)
    for (int j = 0; j < 4; j++)
      for (int l = 0; l < lanes; l++) sum[j][l] = fmaf(x[i + j * lanes + l], w[i + j * lanes + l], sum[j][l]);
  for (int l = 0; l < lanes; l++) sum[0][l] += sum[2][l], sum[1][l] += sum[3][l];
  for (int l = 0; l < lanes; l++) sum[0][l] += sum[1][l];
  float total;
  if (lanes == 16) total = lanes_sum(sum[0], 16);
  else {
    const float t0 = sum[0][0] + sum[0][4], t1 = sum[0][1] + sum[0][5], t2 = sum[0][2] + sum[0][6], t3 = sum[0][3] + sum[0][7];
    total = (t0 + t1) + (t2 + t3);
  }
  for (int i = np; i < k; i++) total += x[i] * w[i];
  return total;
}
#pragma GCC pop_options

typedef struct {
  const packed_weight* w;
  const float* X;  // [M, cols], rounded for W's type (and pair-permuted with bf16 pairs)
  float* C;
  int M, accumulate, lanes, pairs, tinyblas, units, tasks;
  int failed;
} float_lanes_job;

static inline void float_lanes_store(const float_lanes_job* j, int i, int r, float v) {
  float* c = j->C + (size_t)i * j->w->rows + r;
  *c = j->accumulate ? *c + v : v;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_LANES16_4X4 1
// lanes_dot_2x2's sums for 4 rows of W by 4 rows of X in 16 lanes, in AVX-512 registers (16
// accumulators, as tinyBLAS's own tiles hold them): the same FMAs in the same order, so the same bits,
// at about the gemm's speed. Only called where cpu_float_order() found AVX-512.
__attribute__((target("avx512f"))) static void lanes16_dot_4x4(const float* const w[4], const float* const x[4], int k,
                                                               float out[4][4]) {
  __m512 acc[4][4];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++) acc[r][c] = _mm512_setzero_ps();
  for (int l = 0; l < k; l += 16) {
    __m512 a[4], b[4];
    for (int r = 0; r < 4; r++) a[r] = _mm512_loadu_ps(w[r] + l);
    for (int c = 0; c < 4; c++) b[c] = _mm512_loadu_ps(x[c] + l);
    for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++) acc[r][c] = _mm512_fmadd_ps(a[r], b[c], acc[r][c]);
  }
  float lanes[16];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 4; c++) {
      _mm512_storeu_ps(lanes, acc[r][c]);
      out[r][c] = lanes_sum(lanes, 16);
    }
}

#define HAVE_LANES8_4X3 1
// The same sums in 8 lanes for 4 rows of W by 3 rows of X, in AVX2 registers (12 accumulators, as
// tinyBLAS's 4×3 tile of its AVX2 build holds them): the FMAs and hsum of lanes_dot_2x2, in fewer loads.
// Only called where cpu_float_order() found AVX2 and FMA.
__attribute__((target("avx2,fma"))) static void lanes8_dot_4x3(const float* const w[4], const float* const x[3], int k,
                                                               float out[4][3]) {
  __m256 acc[4][3];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 3; c++) acc[r][c] = _mm256_setzero_ps();
  for (int l = 0; l < k; l += 8) {
    const __m256 b0 = _mm256_loadu_ps(x[0] + l), b1 = _mm256_loadu_ps(x[1] + l), b2 = _mm256_loadu_ps(x[2] + l);
    for (int r = 0; r < 4; r++) {
      const __m256 a = _mm256_loadu_ps(w[r] + l);
      acc[r][0] = _mm256_fmadd_ps(a, b0, acc[r][0]);
      acc[r][1] = _mm256_fmadd_ps(a, b1, acc[r][1]);
      acc[r][2] = _mm256_fmadd_ps(a, b2, acc[r][2]);
    }
  }
  float lanes[8];
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 3; c++) {
      _mm256_storeu_ps(lanes, acc[r][c]);
      out[r][c] = lanes_sum(lanes, 8);
    }
}
#endif

// Rows of W in groups of 4, decoded into the task's packing space, each group against blocks of X
// small enough to stay in L2 (decoding a group again per block costs 1/XB of the products): 4 by 4
// in AVX-512 registers where the lanes are 16, 4 by 3 in AVX2 registers where they are 8, and what is
// left in pairs of rows by pairs of X's rows.
static void float_lanes_task(void* arg, int t, kernel_scratch* s) {
  float_lanes_job* j = arg;
  const packed_weight* w = j->w;
  const int cols = w->cols, lo = (int)((long long)j->units * t / j->tasks) * 4;
  int hi = (int)((long long)j->units * (t + 1) / j->tasks) * 4;
  if (hi > w->rows) hi = w->rows;
  float* pack = gemm_pack(s);
  if (!pack) { j->failed = 1; return; }
  float* wd[4] = {pack, pack + cols, pack + 2 * (size_t)cols, pack + 3 * (size_t)cols};
  int xb = (int)((256 * 1024 / sizeof(float)) / (size_t)cols) & ~3;
  if (xb < 4) xb = 4;
  for (int i0 = 0; i0 < j->M; i0 += xb) {
    const int i1 = i0 + xb < j->M ? i0 + xb : j->M;
    for (int g0 = lo; g0 < hi; g0 += 4) {
      const int rows = g0 + 4 <= hi ? 4 : hi - g0;
      for (int r = 0; r < rows; r++) {
        decode_segment(w->type, w->data + (size_t)(g0 + r) * w->row_bytes, w->col0, cols, wd[r]);
        if (j->pairs) pair_permute(wd[r], cols);
      }
      int i = i0;
#ifdef HAVE_LANES16_4X4
      if (j->tinyblas && j->lanes == 16 && rows == 4)
        for (; i + 4 <= i1; i += 4) {
          const float* x[4] = {j->X + (size_t)i * cols, j->X + (size_t)(i + 1) * cols, j->X + (size_t)(i + 2) * cols, j->X + (size_t)(i + 3) * cols};
          float out[4][4];
          lanes16_dot_4x4((const float* const*)wd, x, cols, out);
          for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++) float_lanes_store(j, i + c, g0 + r, out[r][c]);
        }
#endif
#ifdef HAVE_LANES8_4X3
      if (j->tinyblas && j->lanes == 8 && rows == 4)
        for (; i + 3 <= i1; i += 3) {
          const float* x[3] = {j->X + (size_t)i * cols, j->X + (size_t)(i + 1) * cols, j->X + (size_t)(i + 2) * cols};
          float out[4][3];
          lanes8_dot_4x3((const float* const*)wd, x, cols, out);
          for (int r = 0; r < 4; r++)
            for (int c = 0; c < 3; c++) float_lanes_store(j, i + c, g0 + r, out[r][c]);
        }
#endif
      for (int r0 = 0; r0 < rows; r0 += 2) {
        const int n = r0 + 2 <= rows ? 2 : 1;
        const float *w0 = wd[r0], *w1 = wd[r0 + n - 1];
        for (int ii = i; ii < i1; ii += 2) {
          const float* x0 = j->X + (size_t)ii * cols;
          const float* x1 = ii + 1 < i1 ? x0 + cols : x0;
          float out[4];
          if (j->tinyblas) lanes_dot_2x2(w0, w1, x0, x1, cols, j->lanes, out);
          else out[0] = float_vec_dot(w0, x0, cols, j->lanes), out[1] = float_vec_dot(w0, x1, cols, j->lanes),
               out[2] = float_vec_dot(w1, x0, cols, j->lanes), out[3] = float_vec_dot(w1, x1, cols, j->lanes);
          for (int a = 0; a < n; a++)
            for (int b = 0; b < (ii + 1 < i1 ? 2 : 1); b++) float_lanes_store(j, ii + b, g0 + r0 + a, out[a * 2 + b]);
        }
      }
    }
  }
}

// ggml's AMX build computes an F16 weight whose rows are a multiple of 32 and columns of 16 with its
// AVX-512 tinygemm (amx/mmq.cpp): X stays float32 (not rounded to F16), 16 lanes add x·w by FMA,
// then _mm512_reduce_add_ps — tinyBLAS's F32 order over the decoded weight, for any number of rows.
static int amx_f16_order(const packed_weight* w) {
  return w->type == GGML_F16 && cpu_float_order().amx && w->rows % 32 == 0 && w->cols % 16 == 0;
}

// Q8_0 and Q4_0 weights whose products ggml adds block by block into one accumulator (packed.c
// int8_dot_blocks): both in the AMX build's int8 tiles (rows a multiple of 32), and Q4_0 in the
// q4_0_8x8 gemm of ggml's CPU_REPACK buffer on every AVX2 and AVX-512 build (rows a multiple of 8;
// arch/x86/repack.cpp gemm_q4_b32_8x8_q8_0_lut_avx, the same FMA per block).
static int int8_block_order(const packed_weight* w) {
  const float_order o = cpu_float_order();
  if (o.amx && w->rows % 32 == 0 && (w->type == GGML_Q8_0 || w->type == GGML_Q4_0)) return 1;
  return w->type == GGML_Q4_0 && o.lanes && w->rows % 8 == 0;
}

// Q4_1 and Q5_1 weights, which ggml multiplies in ggml_vec_dot_q4_1_q8_1 / q5_1_q8_1 on its AVX2 and
// AVX-512 builds (tinyBLAS takes neither): lane sums of each block's integers, one FMA per block by
// d_w·d_x, hsum, then the mins' m·s added block after block (gemm.c int8_put). The AMX build takes Q4_1
// into its tiles instead, not reproduced.
static int int8_mins_order(const packed_weight* w) {
  const float_order o = cpu_float_order();
  return o.lanes && (w->type == GGML_Q5_1 || (w->type == GGML_Q4_1 && !o.amx));
}

// C (+)= X·Wᵀ in llama.cpp's order for an F32 or BF16 weight, and F16 (X already rounded for its type,
// and permuted here when BF16 pairs): 1 when done (or -1 on no memory), 0 when llama.cpp's order for
// this weight is not one reproduced here (the caller's gemm runs instead).
// F16: on AMX builds as amx_f16_order says; on the other builds tinyBLAS takes it like F32 once X is
// rounded to F16 (its F16 template converts both sides and adds in 16 lanes on AVX-512, 8 on AVX2 with
// F16C: checked against ggml's zen4 and zen3 (haswell-level) builds, 0 apart).
static int float_lanes_matmul(kernel_context* ctx, const packed_weight* w, float* X, int M, float* C, int accumulate) {
  const int amx = amx_f16_order(w);
  const float_order o = cpu_float_order();
  if (w->type != GGML_F32 && w->type != GGML_BF16 && w->type != GGML_F16) return 0;
  if (!o.lanes) return 0;
  const int chunk = float_chunk(w->type, o);
  // tinyBLAS serves prompt processing only: a single row (a decode step) goes to vec_dot.
  const int tinyblas = amx || (M >= 2 && w->cols % chunk == 0 && w->rows % 4 == 0);
  if (!tinyblas && w->type != GGML_F32) return 0;  // (amx: tinyblas)
  const int pairs = tinyblas && w->type == GGML_BF16 && o.bf16_pairs;
  if (pairs)
    for (int i = 0; i < M; i++) pair_permute(X + (size_t)i * w->cols, w->cols);
  float_lanes_job j = {w, X, C, M, accumulate, o.lanes, pairs, tinyblas, (w->rows + 3) / 4, 0, 0};
  j.tasks = task_count(ctx, (double)M * w->rows * w->cols, j.units);
  ctx->run(ctx->pool, j.tasks, float_lanes_task, &j);
  return j.failed ? -1 : 1;
}
