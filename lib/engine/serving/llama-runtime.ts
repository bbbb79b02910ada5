// The one llama.cpp runtime of the process, loaded on first use (never at import: Next's build
// imports route modules, and loading the native binary takes ~1 s). CPU only, prebuilt binary only.
//
// Its thread budget, which every context's decodes share (model-registry.ts), is at most the CPUs:
// node-llama-cpp's default on a CPU build is at least 4, and ggml's threads spin at a barrier after
// every graph node, so on 2 CPUs a lone decode on 4 threads waited out a scheduler slice at most of
// them (8 answer tokens of Qwen2.5-0.5B: over 200 s instead of 4; serving seemed to hang).

import os from "node:os";
import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";
import { logLlamaCpp } from "./llama-log";

const globalForLlama = globalThis as { annealLlama?: Promise<Llama> };

export function getLlamaRuntime(): Promise<Llama> {
  // On globalThis so that dev-server module reloads share one runtime.
  globalForLlama.annealLlama ??= getLlama({ gpu: false, build: "never", maxThreads: os.availableParallelism(), logLevel: LlamaLogLevel.warn, logger: logLlamaCpp });
  return globalForLlama.annealLlama;
}

/** Frees the runtime if it was loaded: a thread that loaded it must, before it is terminated
 *  (terminating it with llama.cpp loaded can abort the whole process). */
export async function disposeLlamaRuntime(): Promise<void> {
  const llama = globalForLlama.annealLlama;
  globalForLlama.annealLlama = undefined;
  if (llama) await (await llama).dispose();
}
