// For tests: every kernel path this machine has. The native addon must load unless
// ANNEAL_KERNELS=ts says to test without it, so an unbuilt addon fails the suite instead of
// silently testing one path.
import type { Kernels } from "./kernels";
import { loadNativeKernels } from "./native";
import { tsKernels } from "./ts";

export const nativeRequired = process.env.ANNEAL_KERNELS !== "ts";

export function loadNativeOrNull(): Kernels | null {
  try {
    return loadNativeKernels();
  } catch {
    return null;
  }
}

const native = loadNativeOrNull();

export const kernelPaths: Kernels[] = native ? [tsKernels, native] : [tsKernels];
export const nativeKernels = native;
