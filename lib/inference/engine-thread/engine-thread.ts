// The embedded engine's own thread: loaded models, their contexts, the decode loops, sampling and
// everything per token up to a choice's events. The web server's event loop (HTTP, Next, auth,
// SSE, call recording) runs beside it on the main thread and never sits between a batch's end and
// the next decode; the main thread in turn is never slowed by sampling. vLLM splits its API server
// from its engine core the same way. Everything this thread runs lives in this folder, beside the
// thread-agnostic libraries it loads (lib/engine, lib/log, lib/config, lib/contract);
// thread-boundary.test.ts keeps it so.
import { parentPort } from "node:worker_threads";
import { getEnv } from "@/lib/config/env";
import { disposeLlamaRuntime, getLlamaRuntime } from "@/lib/engine/serving/llama-runtime";
import { ModelRegistry } from "@/lib/engine/serving/model-registry";
import { log } from "@/lib/log";
import { runChoices } from "./run-choices";
import { toThreadError, type CompletionJob, type FromThread, type ToThread } from "./messages";
import { prepareCompletion } from "./prepare-completion";

const port = parentPort!;
// An error that escapes a job must not end the thread: ending it while llama.cpp works on native
// threads can abort the whole process, and every other job would fail with it.
process.on("uncaughtException", (error) => log.error("engine thread: uncaught error", { error }));
process.on("unhandledRejection", (error) => log.error("engine thread: unhandled rejection", { error }));
const registry = new ModelRegistry({ sequencesPerContext: getEnv().ANNEAL_INFERENCE_SEQUENCES_PER_CONTEXT });
const running = new Map<number, AbortController>();
const runs = new Set<Promise<void>>();

// Messages leave in batches: a job's prepared prompt, its first token and its end at the next event
// loop turn (with whatever else is waiting), other tokens within OUTBOX_INTERVAL_MS. One message per
// token cost each thread ~20 µs a token in postMessage and its delivery; the SSE writer holds
// tokens for 25 ms anyway, so a client sees no difference.
const OUTBOX_INTERVAL_MS = 10;
let outbox: FromThread[] = [];
let soon: NodeJS.Immediate | undefined;
let later: NodeJS.Timeout | undefined;

function send(message: FromThread, urgent = true): void {
  outbox.push(message);
  if (urgent) soon ??= setImmediate(flush);
  else later ??= setTimeout(flush, OUTBOX_INTERVAL_MS);
}

function flush(): void {
  clearImmediate(soon);
  clearTimeout(later);
  soon = later = undefined;
  const messages = outbox;
  outbox = [];
  port.postMessage(messages);
}

async function run(id: number, job: CompletionJob): Promise<void> {
  const abort = new AbortController();
  running.set(id, abort);
  try {
    const { prepared, plan } = await prepareCompletion(registry, job, abort.signal);
    send({ type: "prepared", id, prepared });
    const started = new Set<number>(); // choices whose first token was sent
    for await (const event of runChoices(plan)) {
      const first = event.kind === "delta" && !started.has(event.index);
      if (first) started.add(event.index);
      send({ type: "event", id, event }, first);
    }
    send({ type: "end", id });
  } catch (error) {
    send({ type: "error", id, error: toThreadError(error) });
  } finally {
    running.delete(id);
  }
}

async function probe(id: number): Promise<void> {
  try {
    await getLlamaRuntime();
    send({ type: "end", id });
  } catch (error) {
    send({ type: "error", id, error: toThreadError(error) });
  }
}

/** Stops every job, waits for their decodes to end, then frees every model and context, and the
 *  llama.cpp runtime (a thread terminated with it loaded can abort the whole process). */
async function dispose(): Promise<void> {
  for (const abort of running.values()) abort.abort();
  await Promise.allSettled(runs);
  await registry.dispose();
  await disposeLlamaRuntime();
  port.postMessage([{ type: "disposed" }] satisfies FromThread[]);
}

port.on("message", (message: ToThread) => {
  switch (message.type) {
    case "start": {
      const job = run(message.id, message.job).finally(() => runs.delete(job));
      runs.add(job);
      return;
    }
    case "abort":
      return running.get(message.id)?.abort();
    case "probe":
      return void probe(message.id);
    case "dispose":
      return void dispose();
  }
});
