export type { AdamWStepConstants, AttentionShape, Kernels } from "./kernels";
export { loadNativeKernels } from "./native";
export { defaultKernels, selectKernels } from "./select";
export { tsKernels } from "./ts";
