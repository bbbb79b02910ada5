// The native kernels, one table per instruction-set build. variant.c compiles gemm.c and
// attention.c into a table; the addon picks the table the running CPU supports.
#ifndef ANNEAL_KERNELS_H
#define ANNEAL_KERNELS_H

#include <stddef.h>

// Memory gemm and attention reuse from call to call. Kernels running at the same time on different
// threads must each have their own: a kernel_context holds one per thread of its pool, and the addon
// keeps one context per Node environment (JavaScript thread); nothing else in the kernels is shared.
// Starts zeroed; the kernels allocate on first use and grow it; the owner frees the buffers.
typedef struct {
  float* pack;            // gemm's packed blocks of A and B, and a weight's decoded rows (gemm.c)
  float* attention;       // attention's score blocks (attention.c)
  size_t attention_len;   // floats allocated at `attention`
  float* rounded;         // activations rounded for a packed weight (matmul_xwt)
  size_t rounded_len;     // floats allocated at `rounded`
} kernel_scratch;

// One task of a parallel kernel call, on the scratch of the thread running it.
typedef void (*kernel_task)(void* arg, int task, kernel_scratch* scratch);

// The threads a kernel call may use (pool.c). Kernels split their outputs between tasks, never a sum,
// and each output element is computed the same way whichever task computes it, so results are
// bitwise the same for any number of threads.
typedef struct {
  int threads;              // ≥ 1
  kernel_scratch* scratch;  // [threads]; task t of a run uses scratch[t]
  // Runs task(arg, t, &scratch[t]) for t in [0, tasks), tasks ≤ threads, task 0 on the calling
  // thread; returns when all are done.
  void (*run)(void* pool, int tasks, kernel_task task, void* arg);
  void* pool;
} kernel_context;

// ggml's weight types the kernels decode (ggml.h enum ggml_type).
enum { GGML_F32 = 0, GGML_F16 = 1, GGML_Q4_0 = 2, GGML_Q4_1 = 3, GGML_Q5_0 = 6, GGML_Q5_1 = 7, GGML_Q8_0 = 8,
       GGML_Q4_K = 12, GGML_Q5_K = 13, GGML_Q6_K = 14, GGML_BF16 = 30 };

// Values per block and bytes per block of a type the kernels decode; 0 for any other type.
static inline int weight_block(int type, int* block_size, int* block_bytes) {
  static const struct { int type, size, bytes; } layouts[] = {
      {GGML_F32, 1, 4}, {GGML_F16, 1, 2}, {GGML_BF16, 1, 2}, {GGML_Q8_0, 32, 34}, {GGML_Q4_0, 32, 18},
      {GGML_Q4_1, 32, 20}, {GGML_Q5_0, 32, 22}, {GGML_Q5_1, 32, 24}, {GGML_Q4_K, 256, 144}, {GGML_Q5_K, 256, 176},
      {GGML_Q6_K, 256, 210}};
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
    if (layouts[i].type == type) { *block_size = layouts[i].size; *block_bytes = layouts[i].bytes; return 1; }
  return 0;
}

// W[rows, cols] in its GGUF encoding: rows of row_bytes bytes, each cols values (whole blocks).
// col0 (a whole number of blocks, 0 for a whole weight) shifts columns: column j is value col0 + j of a row.
typedef struct {
  int type, rows, cols, col0;
  size_t row_bytes;
  const unsigned char* data;
} packed_weight;

// Kernels that return int return 0, or -1 when they could not allocate their scratch (nothing written).
typedef struct {
  const char* name;
  // C[M,N] (+)= op(A)[M,K]·op(B)[K,N]; op(A)[i,k] = transA ? A[k*lda+i] : A[i*lda+k],
  // op(B)[k,j] = transB ? B[j*ldb+k] : B[k*ldb+j].
  int (*sgemm)(kernel_context* ctx, int transA, int transB, int M, int N, int K, const float* A, int lda,
               const float* B, int ldb, float* C, int ldc, int accumulate);
  // Layouts as kernels.ts: q, out [B,T,H,dh]; k, v [B,T,Hkv,dh]; lse [B,H,T].
  int (*attention_forward)(kernel_context* ctx, float* out, float* lse, const float* q, const float* k, const float* v,
                           int B, int T, int H, int Hkv, int dh);
  int (*attention_backward)(kernel_context* ctx, float* dq, float* dk, float* dv, const float* dout, const float* q,
                            const float* k, const float* v, const float* out, const float* lse,
                            int B, int T, int H, int Hkv, int dh);
  // C[M,rows] (+)= r(X)[M,cols]·Wᵀ, X rounded as ggml's mul_mat rounds it for W's type (packed.c).
  int (*matmul_xwt)(kernel_context* ctx, const packed_weight* w, const float* X, int M, float* C, int accumulate);
  // C[M,cols] (+)= dY[M,rows]·W.
  int (*matmul_dyw)(kernel_context* ctx, const packed_weight* w, const float* dY, int M, float* C, int accumulate);
  // out[i,:] = row ids[i] of W, decoded (ids already checked to be rows of W).
  void (*gather_rows)(const packed_weight* w, const int* ids, int n, float* out);
  void (*rmsnorm_forward)(float* y, float* rstd, const float* x, const float* g, int M, int D, float eps);
  void (*rmsnorm_backward)(float* dx, float* dg, const float* dy, const float* x, const float* g, const float* rstd,
                           int M, int D);
  void (*swiglu_forward)(kernel_context* ctx, float* h, const float* gate, const float* up, int n);
  void (*swiglu_backward)(kernel_context* ctx, float* dgate, float* dup, const float* dh, const float* gate, const float* up, int n);
  void (*token_logprobs_forward)(kernel_context* ctx, float* logprobs, float* entropies, float* lse, const float* logits,
                                 const int* targets, int M, int V);
  void (*token_logprobs_backward)(kernel_context* ctx, float* logits, const float* lse, const float* entropies, const int* targets,
                                  const float* dLogprobs, const float* dEntropies, int M, int V);
  void (*adamw_step)(float* w, const float* g, float* m, float* v, int n, float lr, float beta1, float beta2, float eps,
                     float c1, float c2, float decay);
} kernel_table;

extern const kernel_table kernels_generic;
#ifdef ANNEAL_HAVE_X86_64_V3
extern const kernel_table kernels_x86_64_v3;
#endif

#endif
