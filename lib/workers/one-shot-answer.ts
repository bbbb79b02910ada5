// The thread side of onOneShotThread (one-shot-thread.ts): computes the answer to the thread's request,
// frees llama.cpp's runtime (as every thread that loaded it must, before it ends), and posts the answer
// or the error's message.
import { parentPort, workerData } from "node:worker_threads";
import { disposeLlamaRuntime } from "@/lib/engine/serving/llama-runtime";
import type { OneShotReply } from "./one-shot-thread";

export async function answerOnce<R, T>(work: (request: R) => Promise<T> | T): Promise<void> {
  let reply: OneShotReply<T>;
  try {
    reply = { ok: await work(workerData as R) };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  await disposeLlamaRuntime();
  parentPort!.postMessage(reply);
}
