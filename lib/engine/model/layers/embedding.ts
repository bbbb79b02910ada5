// Token embedding: a row lookup, and its gradient a scatter-add into the looked-up rows.

// x[M,D] = E[tokens[m], :]   (E: [V,D])
export function embeddingForward(x: Float32Array, E: Float32Array, tokens: Int32Array, M: number, D: number): void {
  for (let m = 0; m < M; m++) x.set(E.subarray(tokens[m] * D, tokens[m] * D + D), m * D);
}

// dE[tokens[m], :] += dx[m, :]
export function embeddingBackward(dE: Float32Array, dx: Float32Array, tokens: Int32Array, M: number, D: number): void {
  for (let m = 0; m < M; m++) {
    const e = tokens[m] * D;
    const x = m * D;
    for (let j = 0; j < D; j++) dE[e + j] += dx[x + j];
  }
}
