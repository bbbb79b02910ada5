// The N-API face of the native kernels (loaded by lib/engine/kernels/native.ts). Picks at load the
// fastest kernel table this CPU can run, checks every array's type and length against the sizes it
// is given (a wrong size from JS must throw, not corrupt memory), and calls the table.
//
// Worker threads: each training thread loads the addon into its own Node environment (Node-API
// addons are context-aware), and kernels of different threads run at the same time. So the addon
// keeps no mutable global state: everything lives in one addon_instance per environment, handed to
// every binding as its callback data and freed when the environment ends (its thread exits). Each
// instance owns its kernel thread pool (pool.c), sized by setThreads.
#include <node_api.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "pool.h"

typedef struct {
  const kernel_table* table;  // the fastest build this CPU runs
  kernel_context ctx;         // this environment's threads and their scratch
  kernel_pool* pool;
} addon_instance;

// Arguments of one call; the first problem found is thrown when the binding returns.
typedef struct {
  napi_env env;
  napi_value argv[16];
  size_t argc;
  addon_instance* self;
  const char* error;
} args_t;

static int read_args(napi_env env, napi_callback_info info, args_t* a, size_t expected) {
  a->env = env;
  a->argc = 16;
  a->error = NULL;
  void* self = NULL;
  if (napi_get_cb_info(env, info, &a->argc, a->argv, NULL, &self) != napi_ok || a->argc != expected)
    a->error = "wrong number of arguments";
  a->self = self;
  return a->error == NULL;
}

static int int_arg(args_t* a, size_t i) {
  int32_t v = 0;
  if (!a->error && (napi_get_value_int32(a->env, a->argv[i], &v) != napi_ok || v < 0)) a->error = "sizes must be non-negative int32";
  return v;
}

static double number_arg(args_t* a, size_t i) {
  double v = 0;
  if (!a->error && napi_get_value_double(a->env, a->argv[i], &v) != napi_ok) a->error = "expected a number";
  return v;
}

// A typed array of the given type holding at least `need` elements; NULL (no error) for null when nullable.
static void* array_arg(args_t* a, size_t i, napi_typedarray_type want, size_t need, int nullable) {
  if (a->error) return NULL;
  napi_valuetype vt;
  if (nullable && napi_typeof(a->env, a->argv[i], &vt) == napi_ok && (vt == napi_null || vt == napi_undefined)) return NULL;
  napi_typedarray_type type;
  size_t length, offset;
  void* data;
  napi_value buffer;
  if (napi_get_typedarray_info(a->env, a->argv[i], &type, &length, &data, &buffer, &offset) != napi_ok || type != want)
    a->error = want == napi_float32_array ? "expected a Float32Array" : want == napi_int32_array ? "expected an Int32Array" : "expected a Uint8Array";
  else if (length < need)
    a->error = "array shorter than its shape";
  return data;
}

#define F32(i, need) ((float*)array_arg(&a, i, napi_float32_array, need, 0))
#define F32_OR_NULL(i, need) ((float*)array_arg(&a, i, napi_float32_array, need, 1))
#define I32(i, need) ((int*)array_arg(&a, i, napi_int32_array, need, 0))
#define U8(i, need) ((const unsigned char*)array_arg(&a, i, napi_uint8_array, need, 0))
#define THROW_IF_ERROR(name) \
  do { if (a.error) { char msg[160]; snprintf(msg, sizeof msg, "anneal_kernels.%s: %s", name, a.error); napi_throw_range_error(env, NULL, msg); return NULL; } } while (0)
// For the kernels that return -1 when their scratch could not be allocated.
#define THROW_IF_NO_MEMORY(name, status) \
  do { if ((status) != 0) { napi_throw_error(env, "ENOMEM", "anneal_kernels." name ": out of memory for scratch"); return NULL; } } while (0)

// gemm(transA, transB, M, N, K, A, B, C, accumulate): C[M,N] (+)= op(A)·op(B), dense operands.
static napi_value Gemm(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 9);
  int transA = int_arg(&a, 0), transB = int_arg(&a, 1), M = int_arg(&a, 2), N = int_arg(&a, 3), K = int_arg(&a, 4);
  const float *A = F32(5, (size_t)M * K), *B = F32(6, (size_t)K * N);
  float* C = F32(7, (size_t)M * N);
  bool accumulate = false;
  if (!a.error && napi_get_value_bool(env, a.argv[8], &accumulate) != napi_ok) a.error = "accumulate must be a boolean";
  THROW_IF_ERROR("gemm");
  int status = a.self->table->sgemm(&a.self->ctx, transA, transB, M, N, K, A, transA ? M : K, B, transB ? K : N, C, N,
                                    accumulate);
  THROW_IF_NO_MEMORY("gemm", status);
  return NULL;
}

// A packed weight from arguments (type, rows, cols, data) starting at `first`.
static packed_weight weight_args(args_t* a, size_t first) {
  packed_weight w = {int_arg(a, first), int_arg(a, first + 1), int_arg(a, first + 2), 0, 0, NULL};
  int size = 0, bytes = 0;
  if (!a->error && !weight_block(w.type, &size, &bytes)) a->error = "the weight's ggml type is not one the kernels decode";
  else if (!a->error && w.cols % size != 0) a->error = "the weight's rows are not whole blocks of its type";
  if (a->error) return w;
  w.row_bytes = (size_t)(w.cols / size) * bytes;
  w.data = array_arg(a, first + 3, napi_uint8_array, w.row_bytes * w.rows, 0);
  return w;
}

// matmulXWt(C, X, type, rows, cols, data, M, accumulate): C[M,rows] (+)= r(X)[M,cols]·Wᵀ.
// matmulDyW(C, dY, type, rows, cols, data, M, accumulate): C[M,cols] (+)= dY[M,rows]·W.
static napi_value packed_matmul(napi_env env, napi_callback_info info, int xwt) {
  args_t a;
  read_args(env, info, &a, 8);
  packed_weight w = weight_args(&a, 2);
  int M = int_arg(&a, 6);
  size_t in = (size_t)M * (xwt ? w.cols : w.rows), out = (size_t)M * (xwt ? w.rows : w.cols);
  float* C = F32(0, out);
  const float* X = F32(1, in);
  bool accumulate = false;
  if (!a.error && napi_get_value_bool(env, a.argv[7], &accumulate) != napi_ok) a.error = "accumulate must be a boolean";
  THROW_IF_ERROR(xwt ? "matmulXWt" : "matmulDyW");
  const kernel_table* t = a.self->table;
  int status = (xwt ? t->matmul_xwt : t->matmul_dyw)(&a.self->ctx, &w, X, M, C, accumulate);
  THROW_IF_NO_MEMORY("packed matmul", status);
  return NULL;
}

static napi_value MatmulXWt(napi_env env, napi_callback_info info) { return packed_matmul(env, info, 1); }
static napi_value MatmulDyW(napi_env env, napi_callback_info info) { return packed_matmul(env, info, 0); }

// gatherRows(out, type, rows, cols, data, ids, n)
static napi_value GatherRows(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 7);
  packed_weight w = weight_args(&a, 1);
  int n = int_arg(&a, 6);
  float* out = F32(0, (size_t)n * w.cols);
  const int* ids = I32(5, n);
  for (int i = 0; !a.error && i < n; i++) if (ids[i] < 0 || ids[i] >= w.rows) a.error = "a row id is outside the weight";
  THROW_IF_ERROR("gatherRows");
  a.self->table->gather_rows(&w, ids, n, out);
  return NULL;
}

typedef struct { int B, T, H, Hkv, dh; size_t q, kv, lse; } attention_shape;

static attention_shape shape_args(args_t* a, size_t first) {
  attention_shape s = {int_arg(a, first), int_arg(a, first + 1), int_arg(a, first + 2), int_arg(a, first + 3), int_arg(a, first + 4), 0, 0, 0};
  if (!a->error && (s.Hkv == 0 || s.H % s.Hkv != 0)) a->error = "nHeads must be a positive multiple of nKvHeads";
  s.q = (size_t)s.B * s.T * s.H * s.dh;
  s.kv = (size_t)s.B * s.T * s.Hkv * s.dh;
  s.lse = (size_t)s.B * s.H * s.T;
  return s;
}

// attentionForward(out, lse, q, k, v, B, T, H, Hkv, dh)
static napi_value AttentionForward(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 10);
  attention_shape s = shape_args(&a, 5);
  float *out = F32(0, s.q), *lse = F32(1, s.lse);
  const float *q = F32(2, s.q), *k = F32(3, s.kv), *v = F32(4, s.kv);
  THROW_IF_ERROR("attentionForward");
  int status = a.self->table->attention_forward(&a.self->ctx, out, lse, q, k, v, s.B, s.T, s.H, s.Hkv, s.dh);
  THROW_IF_NO_MEMORY("attentionForward", status);
  return NULL;
}

// attentionBackward(dq, dk, dv, dout, q, k, v, out, lse, B, T, H, Hkv, dh)
static napi_value AttentionBackward(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 14);
  attention_shape s = shape_args(&a, 9);
  float *dq = F32(0, s.q), *dk = F32(1, s.kv), *dv = F32(2, s.kv);
  const float *dout = F32(3, s.q), *q = F32(4, s.q), *k = F32(5, s.kv), *v = F32(6, s.kv), *out = F32(7, s.q), *lse = F32(8, s.lse);
  THROW_IF_ERROR("attentionBackward");
  int status = a.self->table->attention_backward(&a.self->ctx, dq, dk, dv, dout, q, k, v, out, lse, s.B, s.T, s.H,
                                                 s.Hkv, s.dh);
  THROW_IF_NO_MEMORY("attentionBackward", status);
  return NULL;
}

// rmsnormForward(y, rstd, x, g, M, D, eps)
static napi_value RmsnormForward(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 7);
  int M = int_arg(&a, 4), D = int_arg(&a, 5);
  double eps = number_arg(&a, 6);
  float *y = F32(0, (size_t)M * D), *rstd = F32(1, M);
  const float *x = F32(2, (size_t)M * D), *g = F32(3, D);
  THROW_IF_ERROR("rmsnormForward");
  a.self->table->rmsnorm_forward(y, rstd, x, g, M, D, (float)eps);
  return NULL;
}

// rmsnormBackward(dx, dg, dy, x, g, rstd, M, D)
static napi_value RmsnormBackward(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 8);
  int M = int_arg(&a, 6), D = int_arg(&a, 7);
  float *dx = F32(0, (size_t)M * D), *dg = F32(1, D);
  const float *dy = F32(2, (size_t)M * D), *x = F32(3, (size_t)M * D), *g = F32(4, D), *rstd = F32(5, M);
  THROW_IF_ERROR("rmsnormBackward");
  a.self->table->rmsnorm_backward(dx, dg, dy, x, g, rstd, M, D);
  return NULL;
}

// cosSin(cos, sin, angles, n): the C library's cosf and sinf, which ggml's RoPE calls for its angles.
static napi_value CosSin(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 4);
  int n = int_arg(&a, 3);
  float *c = F32(0, n), *s = F32(1, n);
  const float* angles = F32(2, n);
  THROW_IF_ERROR("cosSin");
  for (int i = 0; i < n; i++) c[i] = cosf(angles[i]), s[i] = sinf(angles[i]);
  return NULL;
}

// swigluForward(h, gate, up, n)
static napi_value SwigluForward(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 4);
  int n = int_arg(&a, 3);
  float* h = F32(0, n);
  const float *gate = F32(1, n), *up = F32(2, n);
  THROW_IF_ERROR("swigluForward");
  a.self->table->swiglu_forward(&a.self->ctx, h, gate, up, n);
  return NULL;
}

// swigluBackward(dgate, dup, dh, gate, up, n)
static napi_value SwigluBackward(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 6);
  int n = int_arg(&a, 5);
  float *dgate = F32(0, n), *dup = F32(1, n);
  const float *dh = F32(2, n), *gate = F32(3, n), *up = F32(4, n);
  THROW_IF_ERROR("swigluBackward");
  a.self->table->swiglu_backward(&a.self->ctx, dgate, dup, dh, gate, up, n);
  return NULL;
}

static int targets_in_range(const int* targets, int M, int V) {
  for (int m = 0; m < M; m++) if (targets[m] < -1 || targets[m] >= V) return 0;
  return 1;
}

// tokenLogprobsForward(logprobs, entropies, lse, logits, targets, M, V)
static napi_value TokenLogprobsForward(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 7);
  int M = int_arg(&a, 5), V = int_arg(&a, 6);
  float *logprobs = F32(0, M), *entropies = F32(1, M), *lse = F32(2, M);
  const float* logits = F32(3, (size_t)M * V);
  const int* targets = I32(4, M);
  if (!a.error && !targets_in_range(targets, M, V)) a.error = "a target is outside the vocabulary";
  THROW_IF_ERROR("tokenLogprobsForward");
  a.self->table->token_logprobs_forward(&a.self->ctx, logprobs, entropies, lse, logits, targets, M, V);
  return NULL;
}

// tokenLogprobsBackward(logits, lse, entropies, targets, dLogprobs, dEntropies | null, M, V)
static napi_value TokenLogprobsBackward(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 8);
  int M = int_arg(&a, 6), V = int_arg(&a, 7);
  float* logits = F32(0, (size_t)M * V);
  const float *lse = F32(1, M), *entropies = F32(2, M);
  const int* targets = I32(3, M);
  const float *dLogprobs = F32(4, M), *dEntropies = F32_OR_NULL(5, M);
  if (!a.error && !targets_in_range(targets, M, V)) a.error = "a target is outside the vocabulary";
  THROW_IF_ERROR("tokenLogprobsBackward");
  a.self->table->token_logprobs_backward(&a.self->ctx, logits, lse, entropies, targets, dLogprobs, dEntropies, M, V);
  return NULL;
}

// adamwStep(w, g, m, v, n, lr, beta1, beta2, eps, c1, c2, decay)
static napi_value AdamwStep(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 12);
  int n = int_arg(&a, 4);
  float *w = F32(0, n), *m = F32(2, n), *v = F32(3, n);
  const float* g = F32(1, n);
  float h[7];
  for (int i = 0; i < 7; i++) h[i] = (float)number_arg(&a, 5 + i);
  THROW_IF_ERROR("adamwStep");
  a.self->table->adamw_step(w, g, m, v, n, h[0], h[1], h[2], h[3], h[4], h[5], h[6]);
  return NULL;
}

static void export_function(napi_env env, napi_value exports, addon_instance* self, const char* name, napi_callback cb) {
  napi_value fn;
  napi_create_function(env, name, NAPI_AUTO_LENGTH, cb, self, &fn);
  napi_set_named_property(env, exports, name, fn);
}

// The fastest build this CPU runs.
static const kernel_table* fastest_table(void) {
#if defined(ANNEAL_HAVE_X86_64_V3) && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v3")) return &kernels_x86_64_v3;
#endif
  return &kernels_generic;
}

// setVariant("fastest" | "generic"): which build this environment's kernels run (generic: the
// x86-64 baseline every machine runs, so tests can check it on any machine); returns its name.
static napi_value SetVariant(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 1);
  char name[16] = "";
  if (!a.error && napi_get_value_string_utf8(env, a.argv[0], name, sizeof name, NULL) != napi_ok) a.error = "expected a string";
  if (!a.error && strcmp(name, "fastest") != 0 && strcmp(name, "generic") != 0) a.error = "the variant must be \"fastest\" or \"generic\"";
  THROW_IF_ERROR("setVariant");
  a.self->table = strcmp(name, "generic") == 0 ? &kernels_generic : fastest_table();
  napi_value result;
  napi_create_string_utf8(env, a.self->table->name, NAPI_AUTO_LENGTH, &result);
  return result;
}

// setThreads(n): the kernels of this environment use n threads (this one and n − 1 workers) from now on.
static napi_value SetThreads(napi_env env, napi_callback_info info) {
  args_t a;
  read_args(env, info, &a, 1);
  int n = int_arg(&a, 0);
  if (!a.error && (n < 1 || n > 1024)) a.error = "threads must be 1 to 1024";
  THROW_IF_ERROR("setThreads");
  if (n == a.self->ctx.threads) return NULL;
  kernel_context ctx;
  kernel_pool* pool = pool_create(n, &ctx);
  if (!pool) {
    napi_throw_error(env, "ENOMEM", "anneal_kernels.setThreads: could not start the kernel threads");
    return NULL;
  }
  pool_destroy(a.self->pool);
  a.self->pool = pool;
  a.self->ctx = ctx;
  return NULL;
}

static napi_value Threads(napi_env env, napi_callback_info info) {
  void* self = NULL;
  napi_value result;
  napi_get_cb_info(env, info, NULL, NULL, NULL, &self);
  napi_create_int32(env, ((addon_instance*)self)->ctx.threads, &result);
  return result;
}

static void free_instance(napi_env env, void* data, void* hint) {
  addon_instance* self = data;
  pool_destroy(self->pool);
  free(self);
}

// Runs once per environment that loads the addon (the main thread, each worker thread).
static napi_value Init(napi_env env, napi_value exports) {
  addon_instance* self = calloc(1, sizeof *self);
  if (!self || napi_set_instance_data(env, self, free_instance, NULL) != napi_ok) {
    free(self);
    napi_throw_error(env, NULL, "anneal_kernels: could not set up the addon");
    return NULL;
  }
  self->table = fastest_table();
  if (!(self->pool = pool_create(1, &self->ctx))) {
    napi_throw_error(env, NULL, "anneal_kernels: could not set up the addon");
    return NULL;
  }
  export_function(env, exports, self, "setVariant", SetVariant);
  export_function(env, exports, self, "setThreads", SetThreads);
  export_function(env, exports, self, "threads", Threads);
  export_function(env, exports, self, "gemm", Gemm);
  export_function(env, exports, self, "matmulXWt", MatmulXWt);
  export_function(env, exports, self, "matmulDyW", MatmulDyW);
  export_function(env, exports, self, "gatherRows", GatherRows);
  export_function(env, exports, self, "attentionForward", AttentionForward);
  export_function(env, exports, self, "attentionBackward", AttentionBackward);
  export_function(env, exports, self, "rmsnormForward", RmsnormForward);
  export_function(env, exports, self, "rmsnormBackward", RmsnormBackward);
  export_function(env, exports, self, "cosSin", CosSin);
  export_function(env, exports, self, "swigluForward", SwigluForward);
  export_function(env, exports, self, "swigluBackward", SwigluBackward);
  export_function(env, exports, self, "tokenLogprobsForward", TokenLogprobsForward);
  export_function(env, exports, self, "tokenLogprobsBackward", TokenLogprobsBackward);
  export_function(env, exports, self, "adamwStep", AdamwStep);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, Init)
