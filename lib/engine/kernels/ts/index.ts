import type { Kernels } from "../kernels";
import { attentionBackward, attentionForward } from "./attention";
import { matmulAB, matmulABt, matmulAtB } from "./matmul";

export const tsKernels: Kernels = {
  name: "ts",
  variant: "ts",
  matmulABt,
  matmulAB,
  matmulAtB,
  attentionForward,
  attentionBackward,
};
