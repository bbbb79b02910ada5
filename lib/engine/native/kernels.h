// The native kernels, one table per instruction-set build. variant.c compiles gemm.c and
// attention.c into a table; the addon picks the table the running CPU supports.
#ifndef ANNEAL_KERNELS_H
#define ANNEAL_KERNELS_H

#include <stddef.h>

// Memory gemm and attention reuse from call to call, owned by the caller. Kernels running at the
// same time on different threads must each have their own (the addon keeps one per Node
// environment, i.e. per thread); nothing else in the kernels is shared. Starts zeroed; the kernels
// allocate on first use and grow it; the owner frees both buffers.
typedef struct {
  float* pack;            // gemm's packed blocks of A and B (gemm.c)
  float* attention;       // attention's score blocks (attention.c)
  size_t attention_len;   // floats allocated at `attention`
} kernel_scratch;

// Kernels that return int return 0, or -1 when they could not allocate their scratch (nothing written).
typedef struct {
  const char* name;
  // C[M,N] (+)= op(A)[M,K]·op(B)[K,N]; op(A)[i,k] = transA ? A[k*lda+i] : A[i*lda+k],
  // op(B)[k,j] = transB ? B[j*ldb+k] : B[k*ldb+j].
  int (*sgemm)(kernel_scratch* scratch, int transA, int transB, int M, int N, int K, const float* A, int lda,
               const float* B, int ldb, float* C, int ldc, int accumulate);
  // Layouts as kernels.ts: q, out [B,T,H,dh]; k, v [B,T,Hkv,dh]; lse [B,H,T].
  int (*attention_forward)(kernel_scratch* scratch, float* out, float* lse, const float* q, const float* k, const float* v,
                           int B, int T, int H, int Hkv, int dh);
  int (*attention_backward)(kernel_scratch* scratch, float* dq, float* dk, float* dv, const float* dout, const float* q,
                            const float* k, const float* v, const float* out, const float* lse,
                            int B, int T, int H, int Hkv, int dh);
  void (*rmsnorm_forward)(float* y, float* rstd, const float* x, const float* g, int M, int D, float eps);
  void (*rmsnorm_backward)(float* dx, float* dg, const float* dy, const float* x, const float* g, const float* rstd,
                           int M, int D);
  void (*swiglu_forward)(float* h, const float* gate, const float* up, int n);
  void (*swiglu_backward)(float* dgate, float* dup, const float* dh, const float* gate, const float* up, int n);
  void (*token_logprobs_forward)(float* logprobs, float* entropies, float* lse, const float* logits,
                                 const int* targets, int M, int V);
  void (*token_logprobs_backward)(float* logits, const float* lse, const float* entropies, const int* targets,
                                  const float* dLogprobs, const float* dEntropies, int M, int V);
  void (*adamw_step)(float* w, const float* g, float* m, float* v, int n, float lr, float beta1, float beta2, float eps,
                     float c1, float c2, float decay);
} kernel_table;

extern const kernel_table kernels_generic;
#ifdef ANNEAL_HAVE_X86_64_V3
extern const kernel_table kernels_x86_64_v3;
#endif

#endif
