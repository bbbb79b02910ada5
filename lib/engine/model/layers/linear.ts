// A bias-free linear layer with llama's weight layout W[out,in] (the GGUF tensor as stored).
import type { Kernels } from "../../kernels";

// y[M,out] = x[M,in] · W[out,in]ᵀ, or += when accumulate (used to add straight into the residual).
export function linearForward(
  k: Kernels, y: Float32Array, x: Float32Array, W: Float32Array, M: number, inDim: number, outDim: number, accumulate = false,
): void {
  k.matmulABt(y, x, W, M, inDim, outDim, accumulate);
}

// dx[M,in] = dy·W (or += when accumulateDx, for inputs feeding several layers); dW[out,in] += dyᵀ·x.
// dW null: W is frozen (a LoRA base), so its gradient, a third of the backward's work, is skipped.
export function linearBackward(
  k: Kernels, dx: Float32Array, dW: Float32Array | null, dy: Float32Array, x: Float32Array, W: Float32Array,
  M: number, inDim: number, outDim: number, accumulateDx: boolean,
): void {
  k.matmulAB(dx, dy, W, M, outDim, inDim, accumulateDx);
  if (dW) k.matmulAtB(dW, dy, x, M, outDim, inDim, true);
}
