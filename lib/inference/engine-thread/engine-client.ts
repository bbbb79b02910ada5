import path from "node:path";
import { Worker } from "node:worker_threads";
import { AppError } from "@/lib/contract/errors";
import { fromThreadError, type ChoiceEvent, type CompletionJob, type FromThread, type PreparedCompletion, type ToThread } from "./messages";

// The web server's side of the engine thread (engine-thread.ts): starts it on first use, sends it
// jobs, and turns its messages back into each job's prompt and stream of choice events. A thread
// that dies fails the jobs it had with a 503 and is started anew by the next job.

// Resolved from the working directory (the project root, as for the shipped model) rather than
// import.meta.url, which inside Next's server bundle names the bundle, not this file.
const ENTRY = path.resolve(/* turbopackIgnore: true */ process.cwd(), "lib/inference/engine-thread/engine-thread.mjs");

/** How long the health check waits for the thread (it loads llama.cpp's binding the first time). */
const PROBE_TIMEOUT_MS = 30_000;
/** How long a thread may take to free its models when asked, before it is terminated. */
const DISPOSE_TIMEOUT_MS = 10_000;

export interface CompletionRun {
  /** The prompt as tokenized, or the error that refuses the request (e.g. 400: prompt too long). */
  readonly prepared: Promise<PreparedCompletion>;
  /** The choices' events, for one consumer; returning early aborts the generation. */
  events(): AsyncGenerator<ChoiceEvent>;
  /** Stops generating (each choice ends at its next token). */
  abort(): void;
  readonly aborted: boolean;
}

interface Listener {
  receive(message: Exclude<FromThread, { type: "disposed" }>): void;
  fail(error: Error): void;
}

class Run implements CompletionRun, Listener {
  readonly prepared: Promise<PreparedCompletion>;
  aborted = false;
  private settlePrepared!: { resolve: (p: PreparedCompletion) => void; reject: (e: Error) => void };
  private readonly queue: ChoiceEvent[] = [];
  private end: { error?: Error } | undefined;
  private waiter: (() => void) | undefined;
  /** Called once when the job ends (its caller's abort listener is removed then). */
  onEnd: (() => void) | undefined;

  constructor(private readonly sendAbort: () => void) {
    this.prepared = new Promise((resolve, reject) => (this.settlePrepared = { resolve, reject }));
    this.prepared.catch(() => undefined); // a caller that never awaits it still sees the error in events()
  }

  receive(message: Exclude<FromThread, { type: "disposed" }>): void {
    if (message.type === "prepared") this.settlePrepared.resolve(message.prepared);
    else if (message.type === "event") this.queue.push(message.event);
    else if (message.type === "end") this.finish({});
    else return this.fail(fromThreadError(message.error));
    this.wake();
  }

  fail(error: Error): void {
    this.settlePrepared.reject(error);
    this.finish({ error });
    this.wake();
  }

  private finish(end: { error?: Error }): void {
    this.end = end;
    this.onEnd?.();
    this.onEnd = undefined;
  }

  abort(): void {
    if (this.aborted || this.end) return;
    this.aborted = true;
    this.sendAbort();
  }

  async *events(): AsyncGenerator<ChoiceEvent> {
    try {
      for (let read = 0; ; ) {
        while (read < this.queue.length) yield this.queue[read++];
        this.queue.length = read = 0;
        if (this.end) {
          if (this.end.error) throw this.end.error;
          return;
        }
        await new Promise<void>((resolve) => (this.waiter = resolve));
      }
    } finally {
      this.abort(); // a no-op once the job has ended
    }
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}

export class EngineThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly listeners = new Map<number, Listener>();

  /** `entry`: the thread's script (tests give a broken one). */
  constructor(private readonly entry: string = ENTRY) {}

  /** Starts a chat completion; `signal` aborts it (a client that went away). */
  start(job: CompletionJob, signal?: AbortSignal): CompletionRun {
    const id = this.nextId++;
    const run = new Run(() => this.post({ type: "abort", id }));
    this.listen(id, run);
    this.post({ type: "start", id, job });
    if (signal?.aborted) run.abort();
    else if (signal) {
      // Removed when the job ends: an RL run's signal outlives thousands of its rollouts.
      const abort = () => run.abort();
      signal.addEventListener("abort", abort, { once: true });
      run.onEnd = () => signal.removeEventListener("abort", abort);
    }
    return run;
  }

  /** Resolves once the thread runs and has loaded llama.cpp's binding (the health check); fails
   *  when it does not answer within `timeoutMs`. */
  async probe(timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
    const id = this.nextId++;
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`the engine thread did not answer within ${timeoutMs / 1000} s`)), timeoutMs);
        this.listen(id, { receive: (m) => (m.type === "error" ? reject(fromThreadError(m.error)) : m.type === "end" && resolve()), fail: reject });
        this.post({ type: "probe", id });
      });
    } finally {
      clearTimeout(timer);
      this.unlisten(id);
    }
  }

  /** Aborts every job, frees the thread's models and ends the thread. */
  async dispose(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    worker.ref();
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DISPOSE_TIMEOUT_MS);
      worker.on("message", (messages: FromThread[]) => messages.some((m) => m.type === "disposed") && resolve());
      worker.once("exit", () => resolve());
      worker.postMessage({ type: "dispose" } satisfies ToThread);
    });
    clearTimeout(timer);
    await worker.terminate();
    this.failAll(new AppError("unavailable", "The embedded engine was shut down."));
  }

  private post(message: ToThread): void {
    this.thread().postMessage(message);
  }

  private listen(id: number, listener: Listener): void {
    this.listeners.set(id, listener);
    if (this.listeners.size === 1) this.thread().ref(); // a job in flight keeps the process alive
  }

  private unlisten(id: number): void {
    if (this.listeners.delete(id) && this.listeners.size === 0) this.worker?.unref();
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry);
    worker.unref();
    worker.on("message", (messages: FromThread[]) => {
      for (const message of messages) {
        if (message.type === "disposed") continue;
        this.listeners.get(message.id)?.receive(message);
        if (message.type === "end" || message.type === "error") this.unlisten(message.id);
      }
    });
    const lost = (reason: string) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new AppError("unavailable", `The embedded engine stopped (${reason}); retry the request.`));
    };
    worker.on("error", (error) => lost(error.message));
    worker.on("exit", (code) => lost(`its thread exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    for (const listener of listeners) listener.fail(error);
  }
}
