// The embedded engine's own thread: loaded models, their contexts, the decode loops, sampling and
// everything per token up to a choice's events. The web server's event loop (HTTP, Next, auth,
// SSE, call recording) runs beside it on the main thread and never sits between a batch's end and
// the next decode; the main thread in turn is never slowed by sampling. vLLM splits its API server
// from its engine core the same way.
import { parentPort } from "node:worker_threads";
import { getLlamaRuntime } from "@/lib/engine/serving/llama-runtime";
import { ModelRegistry } from "@/lib/engine/serving/model-registry";
import { runChoices } from "@/lib/inference/run-choices";
import { toThreadError, type CompletionJob, type FromThread, type ToThread } from "./messages";
import { prepareCompletion } from "./prepare-completion";

const port = parentPort!;
const registry = new ModelRegistry();
const running = new Map<number, AbortController>();
const runs = new Set<Promise<void>>();

// Everything produced in one event loop turn leaves in one message: after a batch, each of its
// sequences yields a token in the same turn, so one postMessage carries the whole batch.
let outbox: FromThread[] = [];
function send(message: FromThread): void {
  outbox.push(message);
  if (outbox.length === 1) {
    setImmediate(() => {
      const messages = outbox;
      outbox = [];
      port.postMessage(messages);
    });
  }
}

async function run(id: number, job: CompletionJob): Promise<void> {
  const abort = new AbortController();
  running.set(id, abort);
  try {
    const { prepared, plan } = await prepareCompletion(registry, job, abort.signal);
    send({ type: "prepared", id, prepared });
    for await (const event of runChoices(plan)) send({ type: "event", id, event });
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

/** Stops every job, waits for their decodes to end, then frees every model and context. */
async function dispose(): Promise<void> {
  for (const abort of running.values()) abort.abort();
  await Promise.allSettled(runs);
  await registry.dispose();
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
