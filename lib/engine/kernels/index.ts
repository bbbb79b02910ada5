export type { AdamWStepConstants, AttentionShape, Kernels } from "./kernels";
export { loadNativeKernels } from "./native";
export { defaultKernels, selectKernels } from "./select";
export { tsKernels } from "./ts";
export { gatherRows, packedWeight, packedWeightFromF32, packedWeightFromTensor, packedRowBytes } from "./packed-weight";
export type { GgmlType, PackedWeight } from "./packed-weight";
