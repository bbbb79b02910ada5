import { adamwStep } from "../../model/adamw-step";
import { rmsnormBackward, rmsnormForward } from "../../model/layers/rmsnorm";
import { cosSin } from "../../model/layers/rope";
import { swigluBackward, swigluForward } from "../../model/layers/swiglu";
import { tokenLogprobsBackward, tokenLogprobsForward } from "../../model/layers/token-logprobs";
import type { Kernels } from "../kernels";
import { gatherRows } from "../packed-weight";
import { attentionBackward, attentionForward } from "./attention";
import { matmulAB, matmulABt, matmulAtB } from "./matmul";
import { blockwisePackedMatmuls } from "./packed-matmul";

export const tsKernels: Kernels = {
  name: "ts",
  variant: "ts",
  matmulABt,
  matmulAB,
  matmulAtB,
  ...blockwisePackedMatmuls({ matmulABt, matmulAB }),
  gatherRows,
  attentionForward,
  attentionBackward,
  rmsnormForward,
  rmsnormBackward,
  cosSin,
  swigluForward,
  swigluBackward,
  tokenLogprobsForward,
  tokenLogprobsBackward,
  adamwStep,
};
