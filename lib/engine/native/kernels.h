// The native kernels, one table per instruction-set build. variant.c compiles gemm.c and
// attention.c into a table; the addon picks the table the running CPU supports.
#ifndef ANNEAL_KERNELS_H
#define ANNEAL_KERNELS_H

typedef struct {
  const char* name;
  // C[M,N] (+)= op(A)[M,K]·op(B)[K,N]; op(A)[i,k] = transA ? A[k*lda+i] : A[i*lda+k],
  // op(B)[k,j] = transB ? B[j*ldb+k] : B[k*ldb+j].
  void (*sgemm)(int transA, int transB, int M, int N, int K, const float* A, int lda,
                const float* B, int ldb, float* C, int ldc, int accumulate);
  // Layouts as kernels.ts: q, out [B,T,H,dh]; k, v [B,T,Hkv,dh]; lse [B,H,T].
  void (*attention_forward)(float* out, float* lse, const float* q, const float* k, const float* v,
                            int B, int T, int H, int Hkv, int dh);
  void (*attention_backward)(float* dq, float* dk, float* dv, const float* dout, const float* q,
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
