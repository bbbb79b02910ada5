// exp and SiLU as ggml's CPU backend computes them on x86 (ggml-cpu vec.h `ggml_v_expf`, `ggml_v_silu`,
// adapted from ARM's optimized routines; ggml is MIT-licensed), one lane at a time, so softmax and
// SwiGLU give llama.cpp's bits. The AVX-512 builds and the AVX2 builds of libggml-cpu differ: the
// former finish with scalef(j, n), the latter with k·j + k where k = 2^n, and each clamps out-of-range
// inputs its own way. `lanes` is float_lanes.c's cpu_float_order().lanes (16, 8, or 0: libm's expf).
// fp-contract is off here: a product fused into a later sum by the compiler would round once where
// ggml rounds twice.
#include <math.h>
#include <stdint.h>

#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

static inline float bits_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

static inline uint32_t float_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

// The shared head of both builds: n = round(x / ln 2), b = x − n·ln 2 in two parts, u = b².
#define GGML_EXPF_HEAD                                              \
  const float r = 0x1.8p23f;                                        \
  const float z = fmaf(x, 0x1.715476p+0f, r);                       \
  const float n = z - r;                                            \
  const float b = fmaf(-n, 0x1.7f7d1cp-20f, fmaf(-n, 0x1.62e4p-1f, x)); \
  const float u = b * b;

static inline float ggml_expf_avx512(float x) {
  GGML_EXPF_HEAD
  const float j = fmaf(fmaf(fmaf(0x1.0e4020p-7f, b, 0x1.573e2ep-5f), u, fmaf(0x1.555e66p-3f, b, 0x1.fffdb6p-2f)), u,
                       fmaf(0x1.ffffecp-1f, b, 1.0f));
  if (fabsf(n) > 192) return n <= 0 ? 0.0f : INFINITY;  // NaN n (x = −inf − … ) compares false: not here
  return ldexpf(j, (int)n);                               // _mm512_scalef_ps(j, n): n is whole
}

static inline float ggml_expf_avx2(float x) {
  GGML_EXPF_HEAD
  const uint32_t e = float_bits(z) << 23;
  const float k = bits_float(e + float_bits(1.0f));
  const float j = fmaf(fmaf(fmaf(0x1.0e4020p-7f, b, 0x1.573e2ep-5f), u, fmaf(0x1.555e66p-3f, b, 0x1.fffdb6p-2f)), u,
                       0x1.ffffecp-1f * b);
  if (!(fabsf(n) > 126)) return fmaf(j, k, k);
  const uint32_t g = n <= 0 ? 0x82000000u : 0;
  const float s1 = bits_float(g + 0x7f000000u), s2 = bits_float(e - g);
  if (fabsf(n) > 192) return s1 * s1;
  return fmaf(s2, j, s2) * s1;
}

// exp(x) as ggml's build for this CPU computes it in its vector loops.
static inline float ggml_expf(float x, int lanes) {
  if (x == -INFINITY) return 0.0f;  // a masked score: both builds give +0
  return lanes == 16 ? ggml_expf_avx512(x) : lanes == 8 ? ggml_expf_avx2(x) : expf(x);
}

// silu(x) = x / (1 + exp(−x)), as ggml_v_silu (0 − x, not −x: the same but for the sign of zero, which exp ignores).
static inline float ggml_silu(float x, int lanes) { return x / (1.0f + ggml_expf(0.0f - x, lanes)); }

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_GGML_V_EXPF16 1
// ggml_v_expf of ggml's AVX-512 builds (vec.h), as is: 16 lanes at once, the same bits as
// ggml_expf_avx512 lane by lane. Only called where cpu_float_order() found AVX-512.
__attribute__((target("avx512f,avx512dq"))) static inline __m512 ggml_v_expf16(__m512 x) {
  const __m512 r = _mm512_set1_ps(0x1.8p23f);
  const __m512 z = _mm512_fmadd_ps(x, _mm512_set1_ps(0x1.715476p+0f), r);
  const __m512 n = _mm512_sub_ps(z, r);
  const __m512 b = _mm512_fnmadd_ps(n, _mm512_set1_ps(0x1.7f7d1cp-20f), _mm512_fnmadd_ps(n, _mm512_set1_ps(0x1.62e4p-1f), x));
  const __mmask16 d = _mm512_cmp_ps_mask(_mm512_abs_ps(n), _mm512_set1_ps(192), _CMP_GT_OQ);
  const __m512 u = _mm512_mul_ps(b, b);
  const __m512 j = _mm512_fmadd_ps(
      _mm512_fmadd_ps(_mm512_fmadd_ps(_mm512_set1_ps(0x1.0e4020p-7f), b, _mm512_set1_ps(0x1.573e2ep-5f)), u,
                      _mm512_fmadd_ps(_mm512_set1_ps(0x1.555e66p-3f), b, _mm512_set1_ps(0x1.fffdb6p-2f))),
      u, _mm512_fmadd_ps(_mm512_set1_ps(0x1.ffffecp-1f), b, _mm512_set1_ps(1.0F)));
  const __m512 res = _mm512_scalef_ps(j, n);
  if (_mm512_kortestz(d, d)) return res;
  const __m512 zero = _mm512_setzero_ps();
  const __m512 alt = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(n, zero, _CMP_LE_OQ), _mm512_set1_ps(INFINITY), zero);
  return _mm512_mask_blend_ps(d, res, alt);
}

// y[i] = silu(g[i])·u[i] for n values, 16 at a time as ggml_vec_swiglu_f32 (the rest lane by lane).
__attribute__((target("avx512f,avx512dq"))) static void ggml_swiglu16(float* y, const float* g, const float* u, int n) {
  int i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512 x = _mm512_loadu_ps(g + i);
    const __m512 silu = _mm512_div_ps(x, _mm512_add_ps(_mm512_set1_ps(1), ggml_v_expf16(_mm512_sub_ps(_mm512_setzero_ps(), x))));
    _mm512_storeu_ps(y + i, _mm512_mul_ps(silu, _mm512_loadu_ps(u + i)));
  }
  for (; i < n; i++) y[i] = ggml_silu(g[i], 16) * u[i];
}
#endif

#pragma GCC pop_options
