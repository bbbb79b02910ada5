// The C kernels (lib/engine/native), built by scripts/build-native.mjs. Loading throws when the
// addon was not built or does not load on this machine; select.ts then falls back to TypeScript.
// Every thread that trains loads it (the main thread, each training worker thread): a Node-API
// addon is initialised once per thread's environment and addon.c keeps its state per environment,
// so threads running kernels at the same time share nothing.
import { createRequire } from "node:module";
import os from "node:os";
import { fileURLToPath } from "node:url";
import type { AttentionShape, Kernels } from "./kernels";
import type { PackedWeight } from "./packed-weight";

// Elementwise kernels take Kernels' own arguments; gemm, attention, the packed-weight kernels and
// adamwStep take flat numbers.
interface NativeAddon extends Pick<Kernels,
  "rmsnormForward" | "rmsnormBackward" | "cosSin" | "swigluForward" | "swigluBackward" | "tokenLogprobsForward" | "tokenLogprobsBackward"> {
  setVariant(name: "fastest" | "generic"): string;
  setThreads(n: number): void;
  threads(): number;
  gemm(transA: number, transB: number, M: number, N: number, K: number, A: Float32Array, B: Float32Array, C: Float32Array, accumulate: boolean): void;
  attentionForward(out: Float32Array, lse: Float32Array, q: Float32Array, k: Float32Array, v: Float32Array,
    B: number, T: number, H: number, Hkv: number, dh: number): void;
  attentionBackward(dq: Float32Array, dk: Float32Array, dv: Float32Array, dout: Float32Array, q: Float32Array,
    k: Float32Array, v: Float32Array, out: Float32Array, lse: Float32Array, B: number, T: number, H: number, Hkv: number, dh: number): void;
  matmulXWt(C: Float32Array, X: Float32Array, type: number, rows: number, cols: number, data: Uint8Array, M: number, accumulate: boolean): void;
  matmulDyW(C: Float32Array, dY: Float32Array, type: number, rows: number, cols: number, data: Uint8Array, M: number, accumulate: boolean): void;
  gatherRows(out: Float32Array, type: number, rows: number, cols: number, data: Uint8Array, ids: Int32Array, n: number): void;
  adamwStep(w: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, n: number,
    lr: number, beta1: number, beta2: number, eps: number, c1: number, c2: number, decay: number): void;
}

export const nativeAddonPath = (): string =>
  process.env.ANNEAL_NATIVE_ADDON ?? fileURLToPath(new URL("../native/build/anneal_kernels.node", import.meta.url));

/** Threads each JavaScript thread's kernels use: ANNEAL_KERNEL_THREADS, else every core this
 *  process may run on. Results are bitwise the same for any count (kernels split outputs, not sums). */
export function kernelThreads(value = process.env.ANNEAL_KERNEL_THREADS): number {
  if (value === undefined || value === "") return os.availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1024) throw new Error(`ANNEAL_KERNEL_THREADS must be a whole number from 1 to 1024, not "${value}"`);
  return n;
}

export interface NativeOptions {
  /** Kernel threads (default kernelThreads()). */
  threads?: number;
  /** The build to run: the fastest this CPU supports (default), or the x86-64 baseline (for tests). */
  variant?: "fastest" | "generic";
}

/** The addon's kernels for this JavaScript thread, set to `options` from now on (the addon is one
 *  instance per JavaScript thread, so the latest load's settings apply to every Kernels of it). */
export function loadNativeKernels({ threads = kernelThreads(), variant = "fastest" }: NativeOptions = {}): Kernels {
  const addon = createRequire(import.meta.url)(nativeAddonPath()) as NativeAddon;
  const variantName = addon.setVariant(variant);
  addon.setThreads(threads);
  const dims = (s: AttentionShape) => [s.batch, s.seqLen, s.nHeads, s.nKvHeads, s.headDim] as const;
  const weight = (w: PackedWeight) => [w.type, w.rows, w.cols, w.data] as const;
  return {
    name: "native",
    variant: variantName,
    matmulABt: (C, A, B, M, K, N, acc) => addon.gemm(0, 1, M, N, K, A, B, C, acc),
    matmulAB: (C, A, B, M, K, N, acc) => addon.gemm(0, 0, M, N, K, A, B, C, acc),
    matmulAtB: (C, A, B, M, K, N, acc) => addon.gemm(1, 0, K, N, M, A, B, C, acc),
    matmulXWt: (C, X, w, M, acc) => addon.matmulXWt(C, X, ...weight(w), M, acc),
    matmulDyW: (C, dY, w, M, acc) => addon.matmulDyW(C, dY, ...weight(w), M, acc),
    gatherRows: (out, w, ids) => addon.gatherRows(out, ...weight(w), ids, ids.length),
    attentionForward: (out, lse, q, k, v, s) => addon.attentionForward(out, lse, q, k, v, ...dims(s)),
    attentionBackward: (dq, dk, dv, dout, q, k, v, out, lse, s) =>
      addon.attentionBackward(dq, dk, dv, dout, q, k, v, out, lse, ...dims(s)),
    rmsnormForward: addon.rmsnormForward,
    rmsnormBackward: addon.rmsnormBackward,
    cosSin: addon.cosSin,
    swigluForward: addon.swigluForward,
    swigluBackward: addon.swigluBackward,
    tokenLogprobsForward: addon.tokenLogprobsForward,
    tokenLogprobsBackward: addon.tokenLogprobsBackward,
    adamwStep: (w, g, m, v, n, h) =>
      addon.adamwStep(w, g, m, v, n, h.lr, h.beta1, h.beta2, h.eps, h.c1, h.c2, h.decay),
  };
}
