// A bias-free linear layer with llama's weight layout W[out,in] (the GGUF tensor as stored): float32
// (a weight that trains) or packed in its GGUF encoding (a LoRA model's frozen base, frozen-base.ts).
import type { Kernels } from "../../kernels";
import { isPacked, type Weight } from "../frozen-base";

// y[M,out] = x[M,in] · W[out,in]ᵀ (a residual adds it afterwards, as llama.cpp does: block.ts). A packed W
// rounds x as llama.cpp does for its type (Kernels.matmulXWt).
export function linearForward(k: Kernels, y: Float32Array, x: Float32Array, W: Weight, M: number, inDim: number, outDim: number): void {
  if (isPacked(W)) k.matmulXWt(y, x, W, M, false);
  else k.matmulABt(y, x, W, M, inDim, outDim, false);
}

// dx[M,in] = dy·W (or += when accumulateDx, for inputs feeding several layers); dW[out,in] += dyᵀ·x.
// dW null: W is frozen (a LoRA base), so its gradient, a third of the backward's work, is skipped.
export function linearBackward(
  k: Kernels, dx: Float32Array, dW: Float32Array | null, dy: Float32Array, x: Float32Array, W: Weight,
  M: number, inDim: number, outDim: number, accumulateDx: boolean,
): void {
  if (isPacked(W)) k.matmulDyW(dx, dy, W, M, accumulateDx);
  else k.matmulAB(dx, dy, W, M, outDim, inDim, accumulateDx);
  if (dW) k.matmulAtB(dW, dy, x, M, outDim, inDim, true);
}
