// Frozen weights in their GGUF encoding: decoders of ggml's weight types into float32 (ports of
// ggml-quants.c's dequantize_row_*, bit for bit, like lib/engine/gguf/weight-types.ts), and the
// rounding ggml's CPU mul_mat applies to activations before its dot products (like
// lib/engine/kernels/activation-rounding.ts, where the choice of each rounding is explained).
// gemm.c packs B panels straight from the encoded blocks with decode_segment, so no float32 copy of
// a weight ever exists; a Q8_0, Q5_0, Q4_1 or Q5_1 weight is multiplied in its integer blocks instead
// (int8_dot), as ggml multiplies it.
//
// ggml computes these values with one rounding per operation and no fused multiply-add (the
// shipped libggml-base is built for the x86-64 baseline); the x86-64-v3 build of these kernels would
// otherwise contract d·q − m into an FMA, so contraction is off in this file's functions.
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__F16C__) || defined(__AVX2__)
#include <immintrin.h>
#endif

#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

static inline float bits_to_float(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t float_to_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

// ggml_compute_fp16_to_fp32 (exact).
static inline float f16_to_f32(uint16_t h) {
#ifdef __F16C__
  return _cvtsh_ss(h);
#else
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  if (exponent == 0x1f) return bits_to_float(sign | 0x7f800000 | (mantissa << 13) | (mantissa ? 0x400000 : 0));
  if (exponent != 0) return bits_to_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
  if (mantissa == 0) return bits_to_float(sign);
  uint32_t e = 113;
  while ((mantissa & 0x400) == 0) { mantissa <<= 1; e--; }
  return bits_to_float(sign | (e << 23) | ((mantissa & 0x3ff) << 13));
#endif
}

// ggml_compute_fp32_to_fp16: round to nearest even.
static inline uint16_t f32_to_f16(float f) {
#ifdef __F16C__
  return _cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
#else
  uint32_t w = float_to_bits(f), sign = (w >> 16) & 0x8000, a = w & 0x7fffffff;
  if (a > 0x7f800000) return sign | 0x7e00;
  if (a >= 0x477ff000) return sign | 0x7c00;
  if (a >= 0x38800000) return sign | (((a + 0xfff + ((a >> 13) & 1)) >> 13) - 0x1c000);
  uint32_t e = a >> 23;
  if (e < 102) return sign;
  uint32_t m = (a & 0x7fffff) | 0x800000, shift = 126 - e, q = m >> shift, rest = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rest > half || (rest == half && (q & 1))) q++;
  return sign | q;
#endif
}

// ggml_compute_fp32_to_bf16.
static inline uint16_t f32_to_bf16(float f) {
  uint32_t w = float_to_bits(f);
  if ((w & 0x7fffffff) > 0x7f800000) return (w >> 16) | 64;
  return (w + 0x7fff + ((w >> 16) & 1)) >> 16;
}

static inline uint16_t u16_at(const uint8_t* p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline float f16_at(const uint8_t* p) { return f16_to_f32(u16_at(p)); }
static inline uint32_t u32_at(const uint8_t* p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static void decode_f16(const uint8_t* b, int n, float* y) {
  int i = 0;
#ifdef __F16C__
  for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i*)(b + 2 * i))));
#endif
  for (; i < n; i++) y[i] = f16_at(b + 2 * i);
}

static void decode_bf16(const uint8_t* b, int n, float* y) {
  for (int i = 0; i < n; i++) y[i] = bits_to_float((uint32_t)u16_at(b + 2 * i) << 16);
}

static void decode_q8_0(const uint8_t* b, int nb, float* y) {
  for (int i = 0; i < nb; i++, b += 34, y += 32) {
    const float d = f16_at(b);
    for (int j = 0; j < 32; j++) y[j] = (int8_t)b[2 + j] * d;
  }
}

static void decode_q4_0(const uint8_t* b, int nb, float* y) {
  for (int i = 0; i < nb; i++, b += 18, y += 32) {
    const float d = f16_at(b);
    for (int j = 0; j < 16; j++) {
      y[j] = ((b[2 + j] & 0xf) - 8) * d;
      y[j + 16] = ((b[2 + j] >> 4) - 8) * d;
    }
  }
}

static void decode_q4_1(const uint8_t* b, int nb, float* y) {
  for (int i = 0; i < nb; i++, b += 20, y += 32) {
    const float d = f16_at(b), m = f16_at(b + 2);
    for (int j = 0; j < 16; j++) {
      y[j] = (b[4 + j] & 0xf) * d + m;
      y[j + 16] = (b[4 + j] >> 4) * d + m;
    }
  }
}

static void decode_q5_0(const uint8_t* b, int nb, float* y) {
  for (int i = 0; i < nb; i++, b += 22, y += 32) {
    const float d = f16_at(b);
    const uint32_t qh = u32_at(b + 2);
    for (int j = 0; j < 16; j++) {
      const int x0 = (b[6 + j] & 0xf) | (((qh >> j) << 4) & 0x10);
      const int x1 = (b[6 + j] >> 4) | ((qh >> (j + 12)) & 0x10);
      y[j] = (x0 - 16) * d;
      y[j + 16] = (x1 - 16) * d;
    }
  }
}

static void decode_q5_1(const uint8_t* b, int nb, float* y) {
  for (int i = 0; i < nb; i++, b += 24, y += 32) {
    const float d = f16_at(b), m = f16_at(b + 2);
    const uint32_t qh = u32_at(b + 4);
    for (int j = 0; j < 16; j++) {
      const int x0 = (b[8 + j] & 0xf) | (((qh >> j) << 4) & 0x10);
      const int x1 = (b[8 + j] >> 4) | ((qh >> (j + 12)) & 0x10);
      y[j] = x0 * d + m;
      y[j + 16] = x1 * d + m;
    }
  }
}

// get_scale_min_k4
static inline void scale_min_k4(int j, const uint8_t* q, uint8_t* d, uint8_t* m) {
  if (j < 4) { *d = q[j] & 63; *m = q[j + 4] & 63; }
  else { *d = (q[j + 4] & 0xf) | ((q[j - 4] >> 6) << 4); *m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4); }
}

static void decode_q4_K(const uint8_t* b, int nb, float* y) {
  for (int i = 0; i < nb; i++, b += 144) {
    const float d = f16_at(b), min = f16_at(b + 2);
    const uint8_t* q = b + 16;
    for (int j = 0; j < 8; j += 2, q += 32) {
      uint8_t sc, m;
      scale_min_k4(j, b + 4, &sc, &m);
      const float d1 = d * sc, m1 = min * m;
      scale_min_k4(j + 1, b + 4, &sc, &m);
      const float d2 = d * sc, m2 = min * m;
      for (int l = 0; l < 32; l++) *y++ = d1 * (q[l] & 0xf) - m1;
      for (int l = 0; l < 32; l++) *y++ = d2 * (q[l] >> 4) - m2;
    }
  }
}

static void decode_q5_K(const uint8_t* b, int nb, float* y) {
  for (int i = 0; i < nb; i++, b += 176) {
    const float d = f16_at(b), min = f16_at(b + 2);
    const uint8_t *qh = b + 16, *ql = b + 48;
    uint8_t u1 = 1, u2 = 2;
    for (int j = 0; j < 8; j += 2, ql += 32, u1 <<= 2, u2 <<= 2) {
      uint8_t sc, m;
      scale_min_k4(j, b + 4, &sc, &m);
      const float d1 = d * sc, m1 = min * m;
      scale_min_k4(j + 1, b + 4, &sc, &m);
      const float d2 = d * sc, m2 = min * m;
      for (int l = 0; l < 32; l++) *y++ = d1 * ((ql[l] & 0xf) + (qh[l] & u1 ? 16 : 0)) - m1;
      for (int l = 0; l < 32; l++) *y++ = d2 * ((ql[l] >> 4) + (qh[l] & u2 ? 16 : 0)) - m2;
    }
  }
}

static void decode_q6_K(const uint8_t* b, int nb, float* y) {
  for (int i = 0; i < nb; i++, b += 210) {
    const float d = f16_at(b + 208);
    const uint8_t *ql = b, *qh = b + 128;
    const int8_t* sc = (const int8_t*)(b + 192);
    for (int n = 0; n < 256; n += 128, y += 128, ql += 64, qh += 32, sc += 8) {
      for (int l = 0; l < 32; l++) {
        const int is = l / 16;
        const int q1 = (int8_t)((ql[l] & 0xf) | (((qh[l] >> 0) & 3) << 4)) - 32;
        const int q2 = (int8_t)((ql[l + 32] & 0xf) | (((qh[l] >> 2) & 3) << 4)) - 32;
        const int q3 = (int8_t)((ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
        const int q4 = (int8_t)((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
        y[l] = d * sc[is + 0] * q1;
        y[l + 32] = d * sc[is + 2] * q2;
        y[l + 64] = d * sc[is + 4] * q3;
        y[l + 96] = d * sc[is + 6] * q4;
      }
    }
  }
}

// y[0..n) = values [c0, c0+n) of one encoded row; c0 and n are whole blocks (n may end the row).
static void decode_segment(int type, const uint8_t* row, int c0, int n, float* y) {
  int bs, bytes;
  weight_block(type, &bs, &bytes);
  const uint8_t* b = row + (size_t)(c0 / bs) * bytes;
  switch (type) {
    case GGML_F32: memcpy(y, b, (size_t)n * 4); break;
    case GGML_F16: decode_f16(b, n, y); break;
    case GGML_BF16: decode_bf16(b, n, y); break;
    case GGML_Q8_0: decode_q8_0(b, n / 32, y); break;
    case GGML_Q4_0: decode_q4_0(b, n / 32, y); break;
    case GGML_Q4_1: decode_q4_1(b, n / 32, y); break;
    case GGML_Q5_0: decode_q5_0(b, n / 32, y); break;
    case GGML_Q5_1: decode_q5_1(b, n / 32, y); break;
    case GGML_Q4_K: decode_q4_K(b, n / 256, y); break;
    case GGML_Q5_K: decode_q5_K(b, n / 256, y); break;
    case GGML_Q6_K: decode_q6_K(b, n / 256, y); break;
  }
}

// quantize_row_q8_0 / q8_1 (AVX2) of one block of 32: q = rne(x·127/amax) (an integer, so never −0);
// returns d = F16(amax/127) as a float, and when `s` is given Q8_1's s = F16((amax/127)·Σq).
static float q8_block(const float* x, int8_t* q, float* s) {
#ifdef __AVX2__
  // ggml's own loop: the same operations, 8 lanes at a time (max is exact in any order).
  const __m256 sign = _mm256_set1_ps(-0.0f);
  __m256 v[4], m = _mm256_setzero_ps();
  for (int i = 0; i < 4; i++) m = _mm256_max_ps(m, _mm256_andnot_ps(sign, v[i] = _mm256_loadu_ps(x + 8 * i)));
  __m128 m4 = _mm_max_ps(_mm256_extractf128_ps(m, 1), _mm256_castps256_ps128(m));
  m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
  m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
  const float amax = _mm_cvtss_f32(m4);
  const __m256 id = _mm256_set1_ps(amax != 0.0f ? 127.f / amax : 0.0f);
  for (int i = 0; i < 4; i++) {
    const __m256i qi = _mm256_cvtps_epi32(_mm256_round_ps(_mm256_mul_ps(v[i], id), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    const __m128i q16 = _mm_packs_epi32(_mm256_castsi256_si128(qi), _mm256_extracti128_si256(qi, 1));
    _mm_storel_epi64((__m128i*)(q + 8 * i), _mm_packs_epi16(q16, q16));
  }
#else
  float amax = 0.0f;
  for (int j = 0; j < 32; j++) amax = fmaxf(amax, fabsf(x[j]));
  const float id = amax != 0.0f ? 127.f / amax : 0.0f;
  for (int j = 0; j < 32; j++) q[j] = (int8_t)(int)rintf(x[j] * id);
#endif
  if (s) {
    int sum = 0;
    for (int j = 0; j < 32; j++) sum += q[j];
    *s = f16_to_f32(f32_to_f16(amax / 127.f * (float)sum));
  }
  return f16_to_f32(f32_to_f16(amax / 127.f));
}

static float q8_0_block(const float* x, int8_t* q) { return q8_block(x, q, NULL); }

// quantize_row_q8_0 / q8_1 then decoded: x ≈ q·d (exact in float32).
static void round_q8_0(const float* x, float* out, size_t n) {
  int8_t q[32];
  for (size_t b = 0; b < n; b += 32) {
    const float d = q8_0_block(x + b, q);
    for (int j = 0; j < 32; j++) out[b + j] = q[j] * d;
  }
}

// A Q8_0 or Q5_0 weight row as tinyBLAS_Q0_AVX loads it: per block of 32, its integers (Q5_0's
// 5-bit values less 16, as dequantize_row_q5_0) and d; a Q4_1 or Q5_1 row as ggml_vec_dot_q4_1_q8_1 /
// q5_1_q8_1 load it: its unsigned 4- or 5-bit values and d (the mins are block_mins').
static void int8_weight_blocks(int type, const uint8_t* b, int nb, int8_t* q, float* d) {
  for (int i = 0; i < nb; i++, q += 32) {
    d[i] = f16_at(b);
    if (type == GGML_Q4_1) {
      for (int j = 0; j < 16; j++) q[j] = (int8_t)(b[4 + j] & 0xf), q[j + 16] = (int8_t)(b[4 + j] >> 4);
      b += 20;
      continue;
    }
    if (type == GGML_Q5_1) {
      const uint32_t qh = u32_at(b + 4);
      for (int j = 0; j < 16; j++) {
        q[j] = (int8_t)((b[8 + j] & 0xf) | (((qh >> j) << 4) & 0x10));
        q[j + 16] = (int8_t)((b[8 + j] >> 4) | ((qh >> (j + 12)) & 0x10));
      }
      b += 24;
      continue;
    }
    if (type == GGML_Q8_0) {
      memcpy(q, b + 2, 32);
      b += 34;
      continue;
    }
    if (type == GGML_Q4_0) {
      for (int j = 0; j < 16; j++) q[j] = (int8_t)((b[2 + j] & 0xf) - 8), q[j + 16] = (int8_t)((b[2 + j] >> 4) - 8);
      b += 18;
      continue;
    }
    if (type == GGML_Q4_0) {
      for (int j = 0; j < 16; j++) q[j] = (int8_t)((b[2 + j] & 0xf) - 8), q[j + 16] = (int8_t)((b[2 + j] >> 4) - 8);
      b += 18;
      continue;
    }
    const uint32_t qh = u32_at(b + 2);
    for (int j = 0; j < 16; j++) {
      q[j] = (int8_t)(((b[6 + j] & 0xf) | (((qh >> j) << 4) & 0x10)) - 16);
      q[j + 16] = (int8_t)(((b[6 + j] >> 4) | ((qh >> (j + 12)) & 0x10)) - 16);
    }
    b += 22;
  }
}

// ggml's product of a Q8_0 or Q5_0 weight row and a Q8_0 activation row as tinyBLAS computes each
// element of mul_mat on x86 (llamafile sgemm.cpp, tinyBLAS_Q0_AVX, the same on AVX2 and AVX-512
// builds): 8 float lanes, lane l adding (d_w·d_x)·Σ q_w·q_x over values 4l..4l+3 of each block (an
// exact integer) with one FMA per block, then hsum's order. Integer block sums make it nearly exact,
// so llama.cpp's roundings of the next layer's input fall as ours do (a float32 gemm over decoded
// values did not). Weight rows as int8_weight_blocks gives them.
#ifdef __AVX2__
static inline float hsum8(__m256 acc) {
  __m128 x = _mm_add_ps(_mm256_extractf128_ps(acc, 1), _mm256_castps256_ps128(acc));
  x = _mm_add_ps(x, _mm_movehl_ps(x, x));
  x = _mm_add_ss(x, _mm_movehdup_ps(x));
  return _mm_cvtss_f32(x);
}

// One block's lane sums of q_w·q_x, as floats (exact integers).
static inline __m256 int8_block_sums(__m256i abs_qw, __m256i qw, const int8_t* xq) {
  const __m256i qx = _mm256_loadu_si256((const __m256i*)xq);
  return _mm256_cvtepi32_ps(_mm256_madd_epi16(_mm256_set1_epi16(1), _mm256_maddubs_epi16(abs_qw, _mm256_sign_epi8(qx, qw))));
}
#endif

static float int8_dot(const int8_t* wq, const float* wd, const int8_t* xq, const float* xd, int nb) {
#ifdef __AVX2__
  __m256 acc = _mm256_setzero_ps();
  for (int b = 0; b < nb; b++) {
    const __m256i qw = _mm256_loadu_si256((const __m256i*)(wq + 32 * b));
    acc = _mm256_fmadd_ps(_mm256_set1_ps(wd[b] * xd[b]), int8_block_sums(_mm256_sign_epi8(qw, qw), qw, xq + 32 * b), acc);
  }
  return hsum8(acc);
#else
  float acc[8] = {0};
  for (int b = 0; b < nb; b++) {
    const float d = wd[b] * xd[b];
    for (int l = 0; l < 8; l++) {
      int sum = 0;
      for (int m = 32 * b + 4 * l; m < 32 * b + 4 * l + 4; m++) sum += wq[m] * xq[m];
      acc[l] = fmaf(d, (float)sum, acc[l]);
    }
  }
  const float t0 = acc[4] + acc[0], t1 = acc[5] + acc[1], t2 = acc[6] + acc[2], t3 = acc[7] + acc[3];
  return (t0 + t2) + (t1 + t3);
#endif
}

// ggml's AMX build (libggml-cpu-sapphirerapids, amx/mmq.cpp acc_C and tinygemm_kernel_vnni) multiplies
// Q8_0 and Q4_0 weights in AMX int8 tiles (AVX512-VNNI for a single row): each block's exact integer
// sum, as a float, times d_w·d_x, added by one FMA into a single accumulator, block after block.
static float int8_dot_blocks(const int8_t* wq, const float* wd, const int8_t* xq, const float* xd, int nb) {
  float acc = 0.0f;
  for (int b = 0; b < nb; b++) {
#ifdef __AVX2__
    // The lane sums are exact integers below 2^24, so their float sum is the integer sum.
    const __m256i qw = _mm256_loadu_si256((const __m256i*)(wq + 32 * b));
    const float sum = hsum8(int8_block_sums(_mm256_sign_epi8(qw, qw), qw, xq + 32 * b));
#else
    int isum = 0;
    for (int m = 32 * b; m < 32 * b + 32; m++) isum += wq[m] * xq[m];
    const float sum = (float)isum;
#endif
    acc = fmaf(sum, wd[b] * xd[b], acc);
  }
  return acc;
}

#ifdef __AVX2__
// int8_dot_blocks of one weight row against 8 rows of X at once, each lane of the accumulator one row
// of X (the same FMAs in the same order per row): the 8 blocks' integer sums are reduced together.
static void int8_dot_blocks_x8(const int8_t* wq, const float* wd, const int8_t* const xq[8], const float* const xd[8], int nb,
                               float out[8]) {
  __m256 acc = _mm256_setzero_ps();
  const __m256i ones = _mm256_set1_epi16(1);
  for (int b = 0; b < nb; b++) {
    const __m256i qw = _mm256_loadu_si256((const __m256i*)(wq + 32 * b)), abs_qw = _mm256_sign_epi8(qw, qw);
    __m256i v[8];
    for (int i = 0; i < 8; i++) {
      const __m256i qx = _mm256_loadu_si256((const __m256i*)(xq[i] + 32 * b));
      v[i] = _mm256_madd_epi16(ones, _mm256_maddubs_epi16(abs_qw, _mm256_sign_epi8(qx, qw)));
    }
    const __m256i s01 = _mm256_hadd_epi32(v[0], v[1]), s23 = _mm256_hadd_epi32(v[2], v[3]);
    const __m256i s45 = _mm256_hadd_epi32(v[4], v[5]), s67 = _mm256_hadd_epi32(v[6], v[7]);
    const __m256i s0123 = _mm256_hadd_epi32(s01, s23), s4567 = _mm256_hadd_epi32(s45, s67);
    const __m256i sums = _mm256_add_epi32(_mm256_permute2x128_si256(s0123, s4567, 0x20), _mm256_permute2x128_si256(s0123, s4567, 0x31));
    const __m256 dx = _mm256_set_ps(xd[7][b], xd[6][b], xd[5][b], xd[4][b], xd[3][b], xd[2][b], xd[1][b], xd[0][b]);
    acc = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sums), _mm256_mul_ps(_mm256_set1_ps(wd[b]), dx), acc);
  }
  _mm256_storeu_ps(out, acc);
}
#endif

#define XR 4
// out[r][i] = int8_dot(w[r], x[i]) for 2 weight rows and XR activation rows, to the same bits: each
// block of a weight row is loaded once for the rows of X.
static void int8_dot_2xR(const int8_t* const wq[2], const float* const wd[2], const int8_t* const xq[XR], const float* const xd[XR],
                         int nb, float out[2][XR]) {
#ifdef __AVX2__
  __m256 acc[2][XR];
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < XR; i++) acc[r][i] = _mm256_setzero_ps();
  for (int b = 0; b < nb; b++) {
    const __m256i qw0 = _mm256_loadu_si256((const __m256i*)(wq[0] + 32 * b)), qw1 = _mm256_loadu_si256((const __m256i*)(wq[1] + 32 * b));
    const __m256i abs0 = _mm256_sign_epi8(qw0, qw0), abs1 = _mm256_sign_epi8(qw1, qw1);
    const float d0 = wd[0][b], d1 = wd[1][b];
    for (int i = 0; i < XR; i++) {
      const float dx = xd[i][b];
      acc[0][i] = _mm256_fmadd_ps(_mm256_set1_ps(d0 * dx), int8_block_sums(abs0, qw0, xq[i] + 32 * b), acc[0][i]);
      acc[1][i] = _mm256_fmadd_ps(_mm256_set1_ps(d1 * dx), int8_block_sums(abs1, qw1, xq[i] + 32 * b), acc[1][i]);
    }
  }
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < XR; i++) out[r][i] = hsum8(acc[r][i]);
#else
  for (int r = 0; r < 2; r++)
    for (int i = 0; i < XR; i++) out[r][i] = int8_dot(wq[r], wd[r], xq[i], xd[i], nb);
#endif
}

// Q8_1's s = F16((amax/127)·Σq) minus Σ(q·F16(amax/127)), per block of 32: what ggml's Q4_1/Q5_1
// dot products multiply each block's min by, less what the rounded activations sum to.
static void q8_1_sum_errors(const float* x, float* out, size_t n) {
  for (size_t b = 0; b < n; b += 32) {
    float amax = 0.0f;
    for (int j = 0; j < 32; j++) amax = fmaxf(amax, fabsf(x[b + j]));
    const float id = amax != 0.0f ? 127.f / amax : 0.0f, d = amax / 127.f;
    int sum = 0;
    for (int j = 0; j < 32; j++) sum += (int)rintf(x[b + j] * id);
    out[b / 32] = f16_to_f32(f32_to_f16(d * sum)) - f16_to_f32(f32_to_f16(d)) * sum;
  }
}

// The F16 min of each block of n blocks of a Q4_1 or Q5_1 row.
static void block_mins(int type, const uint8_t* row, int n, float* out) {
  const int bytes = type == GGML_Q4_1 ? 20 : 24;
  for (int b = 0; b < n; b++) out[b] = f16_at(row + (size_t)b * bytes + 2);
}

// ggml-quants.c nearest_int: round half to even through the float adder.
static inline int nearest_int(float fval) {
  float val = fval + 12582912.f;
  int i;
  memcpy(&i, &val, sizeof i);
  return (i & 0x007fffff) - 0x00400000;
}

// quantize_row_q8_K_ref then decoded.
static void round_q8_K(const float* x, float* out, size_t n) {
  for (size_t b = 0; b < n; b += 256) {
    float max = 0.0f, amax = 0.0f;
    for (int j = 0; j < 256; j++) {
      const float ax = fabsf(x[b + j]);
      if (ax > amax) { amax = ax; max = x[b + j]; }
    }
    if (amax == 0.0f) { memset(out + b, 0, 256 * sizeof(float)); continue; }
    const float iscale = -127.f / max, d = 1 / iscale;
    for (int j = 0; j < 256; j++) {
      const int v = nearest_int(iscale * x[b + j]);
      out[b + j] = d * (v < 127 ? v : 127);
    }
  }
}

// out[0..n) = x as ggml's mul_mat rounds activations for a `type` weight (n whole blocks of it).
static void round_activations(int type, const float* x, float* out, size_t n) {
  switch (type) {
    case GGML_F16: {
      size_t i = 0;
#ifdef __F16C__
      for (; i + 8 <= n; i += 8)
        _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm256_cvtps_ph(_mm256_loadu_ps(x + i), _MM_FROUND_TO_NEAREST_INT)));
#endif
      for (; i < n; i++) out[i] = f16_to_f32(f32_to_f16(x[i]));
      break;
    }
    case GGML_BF16:
      for (size_t i = 0; i < n; i++) out[i] = bits_to_float((uint32_t)f32_to_bf16(x[i]) << 16);
      break;
    case GGML_Q8_0: case GGML_Q4_0: case GGML_Q5_0: case GGML_Q4_1: case GGML_Q5_1: round_q8_0(x, out, n); break;
    case GGML_Q4_K: case GGML_Q5_K: case GGML_Q6_K: round_q8_K(x, out, n); break;
    default: memcpy(out, x, n * sizeof(float));
  }
}

#pragma GCC pop_options
