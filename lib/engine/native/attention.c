// Causal grouped-query attention on top of sgemm, one (sequence, head) at a time in blocks of
// ROWS query rows: block rows [i0, i1) only see keys [0, i1), so the masked upper triangle is
// skipped except inside the diagonal block. Probabilities are never stored across calls: forward
// saves each row's log-sum-exp and backward recomputes P = exp(S·scale − lse) (FlashAttention's trick),
// so memory stays O(T·ROWS) per call instead of O(B·H·T²), in the caller's kernel_scratch.
#include <math.h>
#include <stdlib.h>

#define ROWS 64

// Two [ROWS, T] blocks in the scratch (scores/probabilities and their gradients), grown as needed.
static float* score_blocks(kernel_scratch* s, int T) {
  size_t need = (size_t)2 * ROWS * T;
  if (need > s->attention_len) {
    free(s->attention);
    s->attention = malloc(need * sizeof(float));
    s->attention_len = s->attention ? need : 0;
  }
  return s->attention;
}

// Backward's P[r, 0..n) for query row i0+r from scores S: exp(S·scale − lse), masked past the diagonal.
static void probabilities(float* P, int ldp, int rows, int n, int i0, float scale, const float* lse) {
  for (int r = 0; r < rows; r++) {
    float* p = P + (size_t)r * ldp;
    int last = i0 + r;  // the causal mask: keys 0..last
    for (int j = 0; j <= last; j++) p[j] = expf(p[j] * scale - lse[i0 + r]);
    for (int j = last + 1; j < n; j++) p[j] = 0.0f;
  }
}

static int attention_forward(kernel_scratch* s, float* out, float* lse, const float* q, const float* k, const float* v,
                             int B, int T, int H, int Hkv, int dh) {
  if (B == 0 || T == 0) return 0;
  float *S = score_blocks(s, T), *pack = gemm_pack(s);
  if (!S || !pack) return -1;
  const float scale = 1.0f / sqrtf((float)dh);
  const int ldq = H * dh, ldk = Hkv * dh;
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
      const int g = h / (H / Hkv);
      const float* kb = k + (size_t)b * T * ldk + g * dh;
      const float* vb = v + (size_t)b * T * ldk + g * dh;
      float* rowLse = lse + ((size_t)b * H + h) * T;
      for (int i0 = 0; i0 < T; i0 += ROWS) {
        const int rows = T - i0 < ROWS ? T - i0 : ROWS, n = i0 + rows;
        const float* qb = q + ((size_t)b * T + i0) * ldq + h * dh;
        gemm(pack, 0, 1, rows, n, dh, qb, ldq, kb, ldk, NULL, S, n, 0);  // S[rows,n] = Q·Kᵀ
        for (int r = 0; r < rows; r++) {  // softmax of each row, keeping its log-sum-exp
          float* p = S + (size_t)r * n;
          int last = i0 + r;
          float max = -INFINITY, z = 0.0f;
          for (int j = 0; j <= last; j++) if (p[j] * scale > max) max = p[j] * scale;
          for (int j = 0; j <= last; j++) z += p[j] = expf(p[j] * scale - max);
          for (int j = 0; j <= last; j++) p[j] /= z;
          for (int j = last + 1; j < n; j++) p[j] = 0.0f;
          rowLse[i0 + r] = max + logf(z);
        }
        gemm(pack, 0, 0, rows, dh, n, S, n, vb, ldk, NULL, out + ((size_t)b * T + i0) * ldq + h * dh, ldq, 0);  // O = P·V
      }
    }
  return 0;
}

static int attention_backward(kernel_scratch* s, float* dq, float* dk, float* dv, const float* dout, const float* q,
                              const float* k, const float* v, const float* out, const float* lse, int B, int T, int H,
                              int Hkv, int dh) {
  if (B == 0 || T == 0) return 0;
  float *P = score_blocks(s, T), *pack = gemm_pack(s);
  if (!P || !pack) return -1;
  float* dS = P + (size_t)ROWS * T;
  const float scale = 1.0f / sqrtf((float)dh);
  const int ldq = H * dh, ldk = Hkv * dh;
  memset(dk, 0, (size_t)B * T * ldk * sizeof(float));
  memset(dv, 0, (size_t)B * T * ldk * sizeof(float));
  for (int b = 0; b < B; b++)
    for (int h = 0; h < H; h++) {
      const int g = h / (H / Hkv);
      const size_t kvOff = (size_t)b * T * ldk + g * dh;
      const float* rowLse = lse + ((size_t)b * H + h) * T;
      for (int i0 = 0; i0 < T; i0 += ROWS) {
        const int rows = T - i0 < ROWS ? T - i0 : ROWS, n = i0 + rows;
        const size_t qOff = ((size_t)b * T + i0) * ldq + h * dh;
        gemm(pack, 0, 1, rows, n, dh, q + qOff, ldq, k + kvOff, ldk, NULL, P, n, 0);
        probabilities(P, n, rows, n, i0, scale, rowLse);
        gemm(pack, 0, 1, rows, n, dh, dout + qOff, ldq, v + kvOff, ldk, NULL, dS, n, 0);  // dP = dO·Vᵀ
        for (int r = 0; r < rows; r++) {
          // Σ_j p_j·dp_j = dO_i·O_i: the softmax Jacobian's shared term.
          const float* o = out + qOff + (size_t)r * ldq;
          const float* d = dout + qOff + (size_t)r * ldq;
          float dot = 0.0f;
          for (int c = 0; c < dh; c++) dot += d[c] * o[c];
          float* p = P + (size_t)r * n;
          float* ds = dS + (size_t)r * n;
          for (int j = 0; j < n; j++) ds[j] = p[j] * (ds[j] - dot) * scale;
        }
        gemm(pack, 1, 0, n, dh, rows, P, n, dout + qOff, ldq, NULL, dv + kvOff, ldk, 1);  // dV += Pᵀ·dO
        gemm(pack, 0, 0, rows, dh, n, dS, n, k + kvOff, ldk, NULL, dq + qOff, ldq, 0);    // dQ = dS·K
        gemm(pack, 1, 0, n, dh, rows, dS, n, q + qOff, ldq, NULL, dk + kvOff, ldk, 1);    // dK += dSᵀ·Q
      }
    }
  return 0;
}
