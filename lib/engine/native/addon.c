// The N-API face of the native kernels (loaded by lib/engine/kernels/native.ts). Picks at load the
// fastest kernel table this CPU can run, checks every array's length against the sizes it is given
// (a wrong size from JS must throw, not corrupt memory), and calls the table.
// Not thread-safe: the kernels use static scratch, and Node calls them from one JS thread.
#include <node_api.h>
#include <stddef.h>
#include "kernels.h"

static const kernel_table* table = &kernels_generic;

#define CHECK(call) do { if ((call) != napi_ok) { napi_throw_error(env, NULL, "anneal_kernels: bad argument"); return NULL; } } while (0)
#define REQUIRE(cond, msg) do { if (!(cond)) { napi_throw_range_error(env, NULL, "anneal_kernels: " msg); return NULL; } } while (0)

static int float_array(napi_env env, napi_value value, float** data, size_t* length) {
  napi_typedarray_type type;
  napi_value buffer;
  size_t offset;
  if (napi_get_typedarray_info(env, value, &type, length, (void**)data, &buffer, &offset) != napi_ok) return 0;
  return type == napi_float32_array;
}

static int int_arg(napi_env env, napi_value value, int* out) {
  return napi_get_value_int32(env, value, out) == napi_ok && *out >= 0;
}

// gemm(transA, transB, M, N, K, A, B, C, accumulate): C[M,N] (+)= op(A)·op(B), dense operands.
static napi_value Gemm(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value a[9];
  CHECK(napi_get_cb_info(env, info, &argc, a, NULL, NULL));
  REQUIRE(argc == 9, "gemm takes 9 arguments");
  int transA, transB, M, N, K;
  bool accumulate;
  float *A, *B, *C;
  size_t lenA, lenB, lenC;
  REQUIRE(int_arg(env, a[0], &transA) && int_arg(env, a[1], &transB) && int_arg(env, a[2], &M) &&
              int_arg(env, a[3], &N) && int_arg(env, a[4], &K), "gemm: sizes must be non-negative int32");
  REQUIRE(float_array(env, a[5], &A, &lenA) && float_array(env, a[6], &B, &lenB) && float_array(env, a[7], &C, &lenC),
          "gemm: A, B, C must be Float32Array");
  CHECK(napi_get_value_bool(env, a[8], &accumulate));
  REQUIRE(lenA >= (size_t)M * K && lenB >= (size_t)K * N && lenC >= (size_t)M * N, "gemm: array shorter than its shape");
  table->sgemm(transA, transB, M, N, K, A, transA ? M : K, B, transB ? K : N, C, N, accumulate);
  return NULL;
}

typedef struct { int B, T, H, Hkv, dh; size_t qLen, kvLen, lseLen; } attention_shape;

static int shape_arg(napi_env env, napi_value* a, attention_shape* s) {
  if (!int_arg(env, a[0], &s->B) || !int_arg(env, a[1], &s->T) || !int_arg(env, a[2], &s->H) ||
      !int_arg(env, a[3], &s->Hkv) || !int_arg(env, a[4], &s->dh))
    return 0;
  if (s->Hkv == 0 || s->H % s->Hkv != 0) return 0;
  s->qLen = (size_t)s->B * s->T * s->H * s->dh;
  s->kvLen = (size_t)s->B * s->T * s->Hkv * s->dh;
  s->lseLen = (size_t)s->B * s->H * s->T;
  return 1;
}

// attentionForward(out, lse, q, k, v, B, T, H, Hkv, dh)
static napi_value AttentionForward(napi_env env, napi_callback_info info) {
  size_t argc = 10;
  napi_value a[10];
  CHECK(napi_get_cb_info(env, info, &argc, a, NULL, NULL));
  REQUIRE(argc == 10, "attentionForward takes 10 arguments");
  attention_shape s;
  REQUIRE(shape_arg(env, a + 5, &s), "attentionForward: bad shape");
  float *out, *lse, *q, *k, *v;
  size_t lo, ll, lq, lk, lv;
  REQUIRE(float_array(env, a[0], &out, &lo) && float_array(env, a[1], &lse, &ll) && float_array(env, a[2], &q, &lq) &&
              float_array(env, a[3], &k, &lk) && float_array(env, a[4], &v, &lv),
          "attentionForward: arrays must be Float32Array");
  REQUIRE(lo >= s.qLen && ll >= s.lseLen && lq >= s.qLen && lk >= s.kvLen && lv >= s.kvLen,
          "attentionForward: array shorter than its shape");
  table->attention_forward(out, lse, q, k, v, s.B, s.T, s.H, s.Hkv, s.dh);
  return NULL;
}

// attentionBackward(dq, dk, dv, dout, q, k, v, out, lse, B, T, H, Hkv, dh)
static napi_value AttentionBackward(napi_env env, napi_callback_info info) {
  size_t argc = 14;
  napi_value a[14];
  CHECK(napi_get_cb_info(env, info, &argc, a, NULL, NULL));
  REQUIRE(argc == 14, "attentionBackward takes 14 arguments");
  attention_shape s;
  REQUIRE(shape_arg(env, a + 9, &s), "attentionBackward: bad shape");
  float* p[9];
  size_t len[9];
  for (int i = 0; i < 9; i++) REQUIRE(float_array(env, a[i], &p[i], &len[i]), "attentionBackward: arrays must be Float32Array");
  const size_t need[9] = {s.qLen, s.kvLen, s.kvLen, s.qLen, s.qLen, s.kvLen, s.kvLen, s.qLen, s.lseLen};
  for (int i = 0; i < 9; i++) REQUIRE(len[i] >= need[i], "attentionBackward: array shorter than its shape");
  table->attention_backward(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], s.B, s.T, s.H, s.Hkv, s.dh);
  return NULL;
}

static napi_value Init(napi_env env, napi_value exports) {
#if defined(ANNEAL_HAVE_X86_64_V3) && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) table = &kernels_x86_64_v3;
#endif
  napi_value fn, variant;
  napi_create_function(env, "gemm", NAPI_AUTO_LENGTH, Gemm, NULL, &fn);
  napi_set_named_property(env, exports, "gemm", fn);
  napi_create_function(env, "attentionForward", NAPI_AUTO_LENGTH, AttentionForward, NULL, &fn);
  napi_set_named_property(env, exports, "attentionForward", fn);
  napi_create_function(env, "attentionBackward", NAPI_AUTO_LENGTH, AttentionBackward, NULL, &fn);
  napi_set_named_property(env, exports, "attentionBackward", fn);
  napi_create_string_utf8(env, table->name, NAPI_AUTO_LENGTH, &variant);
  napi_set_named_property(env, exports, "variant", variant);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
