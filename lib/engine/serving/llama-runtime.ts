// The one llama.cpp runtime of the process, loaded on first use (never at import: Next's build
// imports route modules, and loading the native binary takes ~1 s). CPU only, prebuilt binary only.

import { getLlama, LlamaLogLevel, type Llama } from "node-llama-cpp";
import { logLlamaCpp } from "./llama-log";

const globalForLlama = globalThis as { annealLlama?: Promise<Llama> };

export function getLlamaRuntime(): Promise<Llama> {
  // On globalThis so that dev-server module reloads share one runtime.
  globalForLlama.annealLlama ??= getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.warn, logger: logLlamaCpp });
  return globalForLlama.annealLlama;
}

/** Frees the runtime if it was loaded: a thread that loaded it must, before it is terminated
 *  (terminating it with llama.cpp loaded can abort the whole process). */
export async function disposeLlamaRuntime(): Promise<void> {
  const llama = globalForLlama.annealLlama;
  globalForLlama.annealLlama = undefined;
  if (llama) await (await llama).dispose();
}
