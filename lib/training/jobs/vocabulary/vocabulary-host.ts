// The runner's vocabulary thread (vocabulary-thread.ts), started when a training thread first
// asks for a vocabulary only llama.cpp reads, and ended by the runner: models and llama.cpp's
// runtime freed first, since terminating a thread that holds them can abort the process.
import { Worker, type MessagePort } from "node:worker_threads";
import { log } from "@/lib/log";
import type { FromVocabularyThread, ToVocabularyThread } from "./vocabulary-thread";

const ENTRY = new URL("./vocabulary-thread.mjs", import.meta.url);
/** How long the thread may take to free llama.cpp, before it is terminated anyway. */
const DISPOSE_TIMEOUT_MS = 10_000;

export class VocabularyThread {
  private worker: Worker | null = null;

  /** Hands a training thread's port to the vocabulary thread (requests already on it wait there). */
  connect(port: MessagePort): void {
    this.thread().postMessage({ type: "connect", port } satisfies ToVocabularyThread, [port]);
  }

  async dispose(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DISPOSE_TIMEOUT_MS);
      worker.on("message", (message: FromVocabularyThread) => message.type === "disposed" && resolve());
      worker.once("exit", () => resolve());
      worker.postMessage({ type: "dispose" } satisfies ToVocabularyThread);
    });
    clearTimeout(timer);
    await worker.terminate();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(ENTRY);
    worker.unref();
    worker.on("error", (error) => log.error("training: the vocabulary thread failed", { error }));
    worker.once("exit", () => {
      if (this.worker === worker) this.worker = null;
    });
    this.worker = worker;
    return worker;
  }
}
