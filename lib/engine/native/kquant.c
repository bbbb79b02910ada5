// Q4_K, Q5_K and Q6_K weights multiplied as ggml's x86 CPU build multiplies them (AVX2 and the AVX-512
// builds but the AMX one, whose K-quants go through its own tiles): activations quantized to Q8_K
// (256 values, a float d, sums per 16), every product of a superblock an exact integer, and only the
// steps that turn those integers into floats rounded, in ggml's order:
// - Q4_K in the q4_K_8x8 gemm of the CPU_REPACK buffer (rows a multiple of 8; arch/x86/repack.cpp):
//   ggml_gemm_q4_K_8x8_q8_K takes rows of X four at a time and adds one FMA per 64 values (two
//   sub-blocks) into a scale accumulator and one into a min accumulator; the last M % 4 rows go through
//   ggml_gemv_q4_K_8x8_q8_K, one FMA of each per superblock. The result is acc − acc_min.
// - Q5_K and Q6_K in ggml_vec_dot_q{5,6}_K_q8_K (arch/x86/quants.c, AVX2): 8 integer lanes, lane l
//   holding values 4l..4l+3 of every 32, each superblock's lanes added by one FMA of d_w·d_x, then
//   hsum's tree; Q5_K adds its mins separately (dmin·Σ min·bsum, one FMA per superblock), Q6_K
//   subtracts 32·scale·bsum from its lanes before the FMA.
// A float gemm over decoded values rounds differently; a projection's output that lands on the other
// side of the next Q8_K rounding then moves a logprob by 0.1–0.3 (measured on llama and qwen3 files).
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#ifdef __AVX2__

// One superblock's weights as these products read them: 256 unsigned quants, a scale and a min per 16
// values (Q4_K and Q5_K hold one per 32: repeated), d and dmin (Q6_K: no min, its quants are offset by 32).
typedef struct {
  uint8_t q[256];
  int16_t sc[16], mn[16];
  float d, dmin;
} kquant_block;

static void kquant_unpack(int type, const uint8_t* b, kquant_block* k) {
  if (type == GGML_Q6_K) {
    const uint8_t *ql = b, *qh = b + 128;
    for (int j = 0; j < 2; j++, ql += 64, qh += 32)
      for (int l = 0; l < 32; l++) {
        uint8_t* q = k->q + 128 * j + l;
        q[0] = (ql[l] & 0xf) | (qh[l] & 3) << 4;
        q[32] = (ql[l + 32] & 0xf) | (qh[l] >> 2 & 3) << 4;
        q[64] = (ql[l] >> 4) | (qh[l] >> 4 & 3) << 4;
        q[96] = (ql[l + 32] >> 4) | (qh[l] >> 6 & 3) << 4;
      }
    for (int i = 0; i < 16; i++) k->sc[i] = ((const int8_t*)(b + 192))[i], k->mn[i] = 0;
    k->d = f16_at(b + 208), k->dmin = 0;
    return;
  }
  const int q5 = type == GGML_Q5_K;
  const uint8_t *qh = b + 16, *qs = b + (q5 ? 48 : 16);
  for (int j = 0; j < 4; j++)
    for (int l = 0; l < 32; l++) {
      const uint8_t v = qs[32 * j + l];
      k->q[64 * j + l] = (v & 0xf) | (q5 ? (qh[l] >> (2 * j) & 1) << 4 : 0);
      k->q[64 * j + 32 + l] = (v >> 4) | (q5 ? (qh[l] >> (2 * j + 1) & 1) << 4 : 0);
    }
  for (int s = 0; s < 8; s++) {
    uint8_t sc, m;
    scale_min_k4(s, b + 4, &sc, &m);
    k->sc[2 * s] = k->sc[2 * s + 1] = sc;
    k->mn[2 * s] = k->mn[2 * s + 1] = m;
  }
  k->d = f16_at(b), k->dmin = f16_at(b + 2);
}

// One superblock of X quantized to Q8_K, and its sums per 16 values.
typedef struct {
  int8_t q[256];
  int16_t bsums[16];
  float d;
} q8K_block;

// quantize_row_q8_K_ref: the value of largest magnitude (the first of equals) maps to −127.
// ggml_quantize_mat_q8_K_4x8 (AVX2), which quantizes the rows its gemm takes, maps +amax to −127
// whenever +amax occurs (`positive_first`): the two differ only when +amax and −amax both occur.
static void q8K_quantize(const float* x, q8K_block* y, int positive_first) {
  float amax = 0.0f, max = 0.0f;
  int positive = 0;
  for (int j = 0; j < 256; j++) {
    const float ax = fabsf(x[j]);
    if (ax > amax) amax = ax, max = x[j];
  }
  for (int j = 0; j < 256; j++) positive |= x[j] == amax;
  if (amax == 0.0f) {
    memset(y, 0, sizeof *y);
    return;
  }
  if (positive_first && positive) max = amax;
  const float iscale = -127.f / max;
  for (int j = 0; j < 256; j++) {
    const int v = nearest_int(iscale * x[j]);
    y->q[j] = (int8_t)(v < 127 ? v : 127);
  }
  for (int g = 0; g < 16; g++) {
    int s = 0;
    for (int j = 0; j < 16; j++) s += y->q[16 * g + j];
    y->bsums[g] = (int16_t)s;
  }
  y->d = 1 / iscale;
}

// The products of 32 values in 8 integer lanes (lane l: values 4l..4l+3), the first 16 values scaled by
// sc0 and the rest by sc1: maddubs then madd, as ggml's AVX2 dot products form them (exact).
static inline __m256i kquant_lanes32(const uint8_t* wq, const int8_t* xq, int16_t sc0, int16_t sc1) {
  const __m256i p16 = _mm256_maddubs_epi16(_mm256_loadu_si256((const __m256i*)wq), _mm256_loadu_si256((const __m256i*)xq));
  return _mm256_madd_epi16(p16, _mm256_set_m128i(_mm_set1_epi16(sc1), _mm_set1_epi16(sc0)));
}

static inline int hsum_epi32(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
  return _mm_cvtsi128_si32(_mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1)));
}

// ggml_gemm_q4_K_8x8_q8_K (per_sub_blocks) and ggml_gemv_q4_K_8x8_q8_K for one row of W and of X.
static float q4K_repacked_dot(const kquant_block* w, const q8K_block* x, int nb, int per_sub_blocks) {
  float acc = 0.0f, acc_min = 0.0f;
  for (int b = 0; b < nb; b++, w++, x++) {
    const float scale = w->d * x->d, min_scale = w->dmin * x->d;
    int iacc = 0, imin = 0;
    for (int sb = 0; sb < 4; sb++) {
      const int v = 64 * sb, g = 4 * sb;  // values v.., 16-value groups g..
      const __m256i lanes = _mm256_add_epi32(kquant_lanes32(w->q + v, x->q + v, w->sc[g], w->sc[g]),
                                             kquant_lanes32(w->q + v + 32, x->q + v + 32, w->sc[g + 2], w->sc[g + 2]));
      const int i = hsum_epi32(lanes);
      const int m = w->mn[g] * (x->bsums[g] + x->bsums[g + 1]) + w->mn[g + 2] * (x->bsums[g + 2] + x->bsums[g + 3]);
      if (per_sub_blocks) {
        acc = fmaf((float)i, scale, acc);
        acc_min = fmaf((float)m, min_scale, acc_min);
      } else {
        iacc += i, imin += m;
      }
    }
    if (!per_sub_blocks) {
      acc = fmaf((float)iacc, scale, acc);
      acc_min = fmaf((float)imin, min_scale, acc_min);
    }
  }
  return acc - acc_min;
}

// ggml_vec_dot_q5_K_q8_K and ggml_vec_dot_q6_K_q8_K (AVX2) for one row of W and of X.
static float kquant_vec_dot(int type, const kquant_block* w, const q8K_block* x, int nb) {
  __m256 acc = _mm256_setzero_ps();
  float summs = 0.0f;
  for (int b = 0; b < nb; b++, w++, x++) {
    __m256i lanes = _mm256_setzero_si256();
    for (int c = 0; c < 256; c += 32) lanes = _mm256_add_epi32(lanes, kquant_lanes32(w->q + c, x->q + c, w->sc[c / 16], w->sc[c / 16 + 1]));
    if (type == GGML_Q6_K) {
      const __m256i bsums = _mm256_loadu_si256((const __m256i*)x->bsums), scales = _mm256_loadu_si256((const __m256i*)w->sc);
      lanes = _mm256_sub_epi32(lanes, _mm256_slli_epi32(_mm256_madd_epi16(bsums, scales), 5));
    } else {
      int mins = 0;
      for (int s = 0; s < 8; s++) mins += w->mn[2 * s] * (x->bsums[2 * s] + x->bsums[2 * s + 1]);
      summs = fmaf(-x->d * w->dmin, (float)mins, summs);
    }
    acc = _mm256_fmadd_ps(_mm256_set1_ps(x->d * w->d), _mm256_cvtepi32_ps(lanes), acc);
  }
  float lanes[8];
  _mm256_storeu_ps(lanes, acc);
  return lanes_sum(lanes, 8) + summs;
}

// ggml multiplies this weight as above on this CPU: 1 for the repacked Q4_K gemm, 2 for the vec_dot
// products, 0 where it does not (AMX and pre-AVX2 builds, a Q4_K whose rows are not whole groups of 8).
static int kquant_order(const packed_weight* w) {
  const float_order o = cpu_float_order();
  if (!o.lanes || o.amx || w->col0 != 0) return 0;
  if (w->type == GGML_Q4_K) return w->rows % 8 == 0 ? 1 : 0;
  return w->type == GGML_Q5_K || w->type == GGML_Q6_K ? 2 : 0;
}

typedef struct {
  const packed_weight* w;
  const float* X;
  q8K_block* x;
  float* C;
  int M, accumulate, order, tasks;
  int failed;
} kquant_job;

static void kquant_quantize_task(void* arg, int t, kernel_scratch* s) {
  kquant_job* j = arg;
  const int nb = j->w->cols / 256, lo = (int)((long long)j->M * t / j->tasks), hi = (int)((long long)j->M * (t + 1) / j->tasks);
  const int gemm_rows = j->order == 1 ? j->M - j->M % 4 : 0;
  for (int i = lo; i < hi; i++)
    for (int b = 0; b < nb; b++) q8K_quantize(j->X + (size_t)i * j->w->cols + 256 * b, j->x + (size_t)i * nb + b, i < gemm_rows);
}

// Rows of W split among tasks; each row unpacked once, then multiplied by every row of X.
static void kquant_matmul_task(void* arg, int t, kernel_scratch* s) {
  kquant_job* j = arg;
  const packed_weight* w = j->w;
  const int nb = w->cols / 256, lo = (int)((long long)w->rows * t / j->tasks), hi = (int)((long long)w->rows * (t + 1) / j->tasks);
  kquant_block* row = (kquant_block*)gemm_pack(s);
  if (!row) { j->failed = 1; return; }
  const int gemm_rows = j->M - j->M % 4;
  for (int r = lo; r < hi; r++) {
    const uint8_t* data = w->data + (size_t)r * w->row_bytes;
    int block_bytes, block_size;
    weight_block(w->type, &block_size, &block_bytes);
    for (int b = 0; b < nb; b++) kquant_unpack(w->type, data + (size_t)b * block_bytes, row + b);
    for (int i = 0; i < j->M; i++) {
      const q8K_block* x = j->x + (size_t)i * nb;
      const float v = j->order == 1 ? q4K_repacked_dot(row, x, nb, i < gemm_rows) : kquant_vec_dot(w->type, row, x, nb);
      float* c = j->C + (size_t)i * w->rows + r;
      *c = j->accumulate ? *c + v : v;
    }
  }
}

// Superblocks of one weight row the task's packing space holds unpacked.
#define KQUANT_MAX_BLOCKS ((MC * KC + KC * NC + NR * KC) * sizeof(float) / sizeof(kquant_block))

// C (+)= X·Wᵀ for a K-quant weight in ggml's order: 1 when done, -1 on no memory, 0 when this CPU's
// ggml does not multiply it as above (the caller's path runs instead).
static int kquant_matmul(kernel_context* ctx, const packed_weight* w, const float* X, int M, float* C, int accumulate) {
  const int order = kquant_order(w);
  const int nb = w->cols / 256;
  if (!order || M == 0 || (size_t)nb > KQUANT_MAX_BLOCKS) return 0;
  kernel_scratch* s = &ctx->scratch[0];
  const size_t need = ((size_t)M * nb * sizeof(q8K_block) + sizeof(float) - 1) / sizeof(float);
  if (need > s->rounded_len) {
    free(s->rounded);
    s->rounded = malloc(need * sizeof(float));
    s->rounded_len = s->rounded ? need : 0;
  }
  if (!s->rounded) return -1;
  kquant_job j = {w, X, (q8K_block*)s->rounded, C, M, accumulate, order, 0, 0};
  j.tasks = task_count(ctx, (double)M * w->cols * 16, M);
  ctx->run(ctx->pool, j.tasks, kquant_quantize_task, &j);
  j.tasks = task_count(ctx, (double)M * w->cols * w->rows, w->rows);
  ctx->run(ctx->pool, j.tasks, kquant_matmul_task, &j);
  return j.failed ? -1 : 1;
}

#else
// A build without AVX2 runs only where ggml's does not take the paths above.
static int kquant_matmul(kernel_context* ctx, const packed_weight* w, const float* X, int M, float* C, int accumulate) { return 0; }
#endif
#pragma GCC pop_options
