// A bias added after a projection (qwen2's q/k/v): y[m,:] += b. Its gradient sums ∂L/∂y over the rows;
// ∂L/∂x is untouched (the bias does not depend on the input).

// y[M,N] += b[N] per row
export function biasForward(y: Float32Array, b: Float32Array, M: number, N: number): void {
  for (let m = 0; m < M; m++) {
    const o = m * N;
    for (let j = 0; j < N; j++) y[o + j] += b[j];
  }
}

// db[N] += Σ_m dy[m,:]
export function biasBackward(db: Float32Array, dy: Float32Array, M: number, N: number): void {
  for (let m = 0; m < M; m++) {
    const o = m * N;
    for (let j = 0; j < N; j++) db[j] += dy[o + j];
  }
}
