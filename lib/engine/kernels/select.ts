// Which kernels the engine runs: native when the addon loads, else TypeScript.
// ANNEAL_KERNELS=ts|native forces one (native then fails loudly instead of falling back).
import type { Kernels } from "./kernels";
import { loadNativeKernels } from "./native";
import { tsKernels } from "./ts";

export function selectKernels(choice: string = process.env.ANNEAL_KERNELS || "auto"): Kernels {
  if (choice === "ts") return tsKernels;
  if (choice === "native") return loadNativeKernels();
  if (choice !== "auto") throw new Error(`ANNEAL_KERNELS must be "ts", "native" or unset, not "${choice}"`);
  try {
    return loadNativeKernels();
  } catch {
    return tsKernels;
  }
}

let chosen: Kernels | undefined;

/** The kernels chosen once per thread (see selectKernels); each worker thread loads its own. */
export function defaultKernels(): Kernels {
  chosen ??= selectKernels();
  return chosen;
}
