// Loaded by bench:soak into the processes it watches (NODE_OPTIONS=--import=<this file>): every
// PROBE_EVERY_MS it runs a full garbage collection on the main thread and on every worker thread
// (the web process's engine thread, a worker's training threads; reached through the inspector),
// then appends one JSON line to $ANNEAL_MEMORY_PROBE_DIR/<pid>.jsonl: the main thread's V8 heap in
// use (`heapUsed`) and the threads' together (`threadsHeapUsed`), in bytes. What the V8 heaps hold after a full collection
// is what JavaScript still references, so their growth tells a leak in JavaScript from a resident
// set that grows in native memory or the allocator. Plain JavaScript: NODE_OPTIONS runs it before
// tsx loads.
import fs from "node:fs";
import inspector from "node:inspector";
import path from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { isMainThread } from "node:worker_threads";

// A full collection of a 160 MB heap pauses its thread 0.3–0.6 s on this machine (load average 10).
const PROBE_EVERY_MS = 60_000;
const ANSWER_WITHIN_MS = 5_000;
const dir = process.env.ANNEAL_MEMORY_PROBE_DIR;

/** Sends inspector commands to every worker thread of this process. */
function workerThreads() {
  const session = new inspector.Session();
  session.connect();
  const sessions = new Set();
  const pending = new Map();
  let nextId = 1;
  session.on("NodeWorker.attachedToWorker", ({ params }) => sessions.add(params.sessionId));
  session.on("NodeWorker.detachedFromWorker", ({ params }) => sessions.delete(params.sessionId));
  session.on("NodeWorker.receivedMessageFromWorker", ({ params }) => {
    const reply = JSON.parse(params.message);
    pending.get(reply.id)?.(reply.result);
    pending.delete(reply.id);
  });
  session.post("NodeWorker.enable", { waitForDebuggerOnStart: false });
  const send = (sessionId, method) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      // A thread that ends meanwhile never answers.
      setTimeout(() => pending.delete(id) && resolve(undefined), ANSWER_WITHIN_MS).unref();
      session.post("NodeWorker.sendMessageToWorker", { sessionId, message: JSON.stringify({ id, method }) }, (error) => error && resolve(undefined));
    });
  /** Each thread's V8 heap after a full collection, in bytes, summed. */
  return async () => {
    let used = 0;
    for (const sessionId of [...sessions]) {
      await send(sessionId, "HeapProfiler.collectGarbage");
      used += (await send(sessionId, "Runtime.getHeapUsage"))?.usedSize ?? 0;
    }
    return used;
  };
}

// Node also runs it on the thread of tsx's module hooks, which is not the process's to measure.
if (dir && isMainThread) {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  const threadsHeapUsed = workerThreads();
  const file = path.join(dir, `${process.pid}.jsonl`);
  const probe = async () => {
    const threads = await threadsHeapUsed();
    gc();
    fs.appendFileSync(file, `${JSON.stringify({ at: Date.now(), heapUsed: process.memoryUsage().heapUsed, threadsHeapUsed: threads })}\n`);
  };
  setInterval(() => void probe(), PROBE_EVERY_MS).unref();
}
