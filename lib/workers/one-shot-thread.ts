// Work that must not stall the web server's event loop — a base's whole forward for the probe,
// loading llama.cpp and tokenizing a job for its inputs — runs on a thread started for the call and
// ended after it. This is the caller's side; the thread answers with answerOnce (one-shot-answer.ts).
import path from "node:path";
import { Worker } from "node:worker_threads";

export type OneShotReply<T> = { ok: T } | { error: string };

/** Starts the thread at `entry` (a .mjs under lib/workers) with `request` and resolves with its answer;
 *  its error (or its exit before answering) rejects, naming `what`. */
export function onOneShotThread<T>(entry: string, request: unknown, what: string): Promise<T> {
  // From the working directory (the project root): inside Next's server bundle import.meta.url names
  // the bundle, not this file.
  const file = path.resolve(/* turbopackIgnore: true */ process.cwd(), "lib/workers", entry);
  return new Promise((resolve, reject) => {
    const thread = new Worker(file, { workerData: request });
    thread.once("message", (reply: OneShotReply<T>) => ("ok" in reply ? resolve(reply.ok) : reject(new Error(reply.error))));
    thread.once("error", reject);
    thread.once("exit", (code) => reject(new Error(`The ${what} thread ended (exit code ${code}) before it answered.`)));
  });
}
