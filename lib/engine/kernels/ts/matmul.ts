// Matmul in plain TypeScript. One kernel does the work: C (+)= A·Bᵀ with a 4×4 register tile
// (16 scalar accumulators), the fastest shape V8 runs (labs/mm.mjs). The other two products
// transpose their operands into reusable scratch first; a transpose is O(MK + KN) against the
// product's O(MKN). Sums run in float64 (JS numbers) and round once when stored.

// C[M,N] (+)= A[M,K] · B[N,K]ᵀ
function gemmABt(C: Float32Array, A: Float32Array, B: Float32Array, M: number, K: number, N: number, accumulate: boolean): void {
  const M4 = M & ~3;
  const N4 = N & ~3;
  for (let i = 0; i < M4; i += 4) {
    const a0 = i * K, a1 = a0 + K, a2 = a1 + K, a3 = a2 + K;
    for (let j = 0; j < N4; j += 4) {
      const b0 = j * K, b1 = b0 + K, b2 = b1 + K, b3 = b2 + K;
      let s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0;
      let s20 = 0, s21 = 0, s22 = 0, s23 = 0, s30 = 0, s31 = 0, s32 = 0, s33 = 0;
      for (let k = 0; k < K; k++) {
        const x0 = A[a0 + k], x1 = A[a1 + k], x2 = A[a2 + k], x3 = A[a3 + k];
        const y0 = B[b0 + k], y1 = B[b1 + k], y2 = B[b2 + k], y3 = B[b3 + k];
        s00 += x0 * y0; s01 += x0 * y1; s02 += x0 * y2; s03 += x0 * y3;
        s10 += x1 * y0; s11 += x1 * y1; s12 += x1 * y2; s13 += x1 * y3;
        s20 += x2 * y0; s21 += x2 * y1; s22 += x2 * y2; s23 += x2 * y3;
        s30 += x3 * y0; s31 += x3 * y1; s32 += x3 * y2; s33 += x3 * y3;
      }
      const c0 = i * N + j, c1 = c0 + N, c2 = c1 + N, c3 = c2 + N;
      if (accumulate) {
        C[c0] += s00; C[c0 + 1] += s01; C[c0 + 2] += s02; C[c0 + 3] += s03;
        C[c1] += s10; C[c1 + 1] += s11; C[c1 + 2] += s12; C[c1 + 3] += s13;
        C[c2] += s20; C[c2 + 1] += s21; C[c2 + 2] += s22; C[c2 + 3] += s23;
        C[c3] += s30; C[c3 + 1] += s31; C[c3 + 2] += s32; C[c3 + 3] += s33;
      } else {
        C[c0] = s00; C[c0 + 1] = s01; C[c0 + 2] = s02; C[c0 + 3] = s03;
        C[c1] = s10; C[c1 + 1] = s11; C[c1 + 2] = s12; C[c1 + 3] = s13;
        C[c2] = s20; C[c2 + 1] = s21; C[c2 + 2] = s22; C[c2 + 3] = s23;
        C[c3] = s30; C[c3 + 1] = s31; C[c3 + 2] = s32; C[c3 + 3] = s33;
      }
    }
  }
  // Ragged edges: the last N % 4 columns of the tiled rows, then the last M % 4 rows.
  for (let i = 0; i < M; i++) {
    for (let j = i < M4 ? N4 : 0; j < N; j++) {
      const a = i * K, b = j * K;
      let s = 0;
      for (let k = 0; k < K; k++) s += A[a + k] * B[b + k];
      C[i * N + j] = accumulate ? C[i * N + j] + s : s;
    }
  }
}

// T[C,R] = X[R,C]ᵀ
function transpose(T: Float32Array, X: Float32Array, R: number, C: number): void {
  for (let i = 0; i < R; i++) {
    const r = i * C;
    for (let j = 0; j < C; j++) T[j * R + i] = X[r + j];
  }
}

let scratchA: Float32Array = new Float32Array(0);
let scratchB: Float32Array = new Float32Array(0);
const grow = (buf: Float32Array, n: number): Float32Array => (buf.length >= n ? buf : new Float32Array(n));

export function matmulABt(C: Float32Array, A: Float32Array, B: Float32Array, M: number, K: number, N: number, accumulate: boolean): void {
  gemmABt(C, A, B, M, K, N, accumulate);
}

// C[M,N] (+)= A[M,K] · B[K,N] = A · (Bᵀ)ᵀ
export function matmulAB(C: Float32Array, A: Float32Array, B: Float32Array, M: number, K: number, N: number, accumulate: boolean): void {
  scratchB = grow(scratchB, K * N);
  transpose(scratchB, B, K, N);
  gemmABt(C, A, scratchB, M, K, N, accumulate);
}

// C[K,N] (+)= A[M,K]ᵀ · B[M,N] = (Aᵀ) · (Bᵀ)ᵀ
export function matmulAtB(C: Float32Array, A: Float32Array, B: Float32Array, M: number, K: number, N: number, accumulate: boolean): void {
  scratchA = grow(scratchA, M * K);
  scratchB = grow(scratchB, M * N);
  transpose(scratchA, A, M, K);
  transpose(scratchB, B, M, N);
  gemmABt(C, scratchA, scratchB, K, M, N, accumulate);
}
