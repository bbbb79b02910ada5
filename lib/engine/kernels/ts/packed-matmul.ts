// matmulXWt and matmulDyW over a PackedWeight on top of dense matmuls: decode a block of W's rows
// into a bounded scratch (never the whole weight) and multiply it with the dense kernel.
import { dequantizeRows } from "../../gguf/weight-types";
import { activationRounding, q8_1SumErrors, roundActivations } from "../activation-rounding";
import type { Kernels } from "../kernels";
import { blockMins, packedRowBytes, type PackedWeight } from "../packed-weight";

/** Floats of W decoded at a time (1 MiB). */
const BLOCK_FLOATS = 1 << 18;

type DenseMatmuls = Pick<Kernels, "matmulABt" | "matmulAB">;
export type PackedMatmuls = Pick<Kernels, "matmulXWt" | "matmulDyW">;

const grow = (buf: Float32Array, n: number): Float32Array => (buf.length >= n ? buf : new Float32Array(n));

/** Rows of W per block: as many as fit BLOCK_FLOATS, at least 4 (the TypeScript gemm's tile). */
const blockRows = (w: PackedWeight) => Math.min(w.rows, Math.max(4, Math.floor(BLOCK_FLOATS / Math.max(1, w.cols)) & ~3));

/** The packed matmuls built on `dense`, with scratch of their own (one set per thread's kernels). */
export function blockwisePackedMatmuls(dense: DenseMatmuls): PackedMatmuls {
  let rounded: Float32Array = new Float32Array(0);
  let wBlock: Float32Array = new Float32Array(0);
  let part: Float32Array = new Float32Array(0);

  function decode(w: PackedWeight, r0: number, n: number): Float32Array {
    const rowBytes = packedRowBytes(w);
    wBlock = grow(wBlock, n * w.cols);
    dequantizeRows(w.type, w.data.subarray(r0 * rowBytes, (r0 + n) * rowBytes), wBlock);
    return wBlock;
  }

  return {
    matmulXWt(C, X, w, M, accumulate) {
      const { rows, cols } = w;
      rounded = grow(rounded, M * cols);
      const x = roundActivations(w.type, X, M * cols, rounded);
      const sumErrors = activationRounding(w.type) === "q8_1";
      const nb = blockRows(w);
      part = grow(part, M * nb);
      for (let r0 = 0; r0 < rows; r0 += nb) {
        const n = Math.min(nb, rows - r0);
        dense.matmulABt(part, x, decode(w, r0, n), M, cols, n, false);
        for (let i = 0; i < M; i++) {
          const c = i * rows + r0;
          const p = i * n;
          if (accumulate) for (let j = 0; j < n; j++) C[c + j] += part[p + j];
          else C.set(part.subarray(p, p + n), c);
        }
      }
      // Q4_1/Q5_1: ggml multiplies each block's min by Q8_1's F16 sum s, not by Σ r(x): add m·(s − Σ r(x)).
      if (sumErrors && rows > 0) dense.matmulABt(C, q8_1SumErrors(X, M * cols, new Float32Array((M * cols) / 32)), blockMins(w), M, cols / 32, rows, true);
    },

    matmulDyW(C, dY, w, M, accumulate) {
      const { rows, cols } = w;
      if (rows === 0) {
        if (!accumulate) C.fill(0, 0, M * cols);
        return;
      }
      const nb = blockRows(w);
      part = grow(part, M * nb);
      for (let r0 = 0; r0 < rows; r0 += nb) {
        const n = Math.min(nb, rows - r0);
        for (let i = 0; i < M; i++) part.set(dY.subarray(i * rows + r0, i * rows + r0 + n), i * n);
        dense.matmulAB(C, part, decode(w, r0, n), M, n, cols, accumulate || r0 > 0);
      }
    },
  };
}
