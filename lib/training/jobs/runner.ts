// A training runner: claims jobs from the queue, trains each on a worker thread, and writes what
// the thread reports (events, progress, the checkpoint, the end) while it holds the job's lease.
// One runs inside `npm start` (embedded); `npm run worker` runs more against PostgreSQL.
import { randomBytes } from "node:crypto";
import os from "node:os";
import { Worker } from "node:worker_threads";
import { getEnv } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { log } from "@/lib/log";
import { loadJobTask, removeJobOutputs, type LoadedJob } from "./load-job-task";
import { appendOwnedEvents, claimJob, endOwnedJob, failAbandonedJobs, releaseJob, renewLease, type LeaseState } from "./queue";
import { completeJob } from "./complete-job";
import type { ThreadMessage } from "./train/thread-messages";
import { registerLocalRunner } from "./wake";

export interface RunnerSettings {
  kind: "embedded" | "worker";
  leaseMs: number;
  heartbeatMs: number;
  /** A thread silent this long (no step, no end) is stuck: its job fails instead of hanging. */
  stallMs: number;
  pollMs: number;
  maxAttempts: number;
  /** Jobs trained at once, each on its own thread. */
  concurrency: number;
}

export function runnerSettingsFromEnv(kind: RunnerSettings["kind"]): RunnerSettings {
  const env = getEnv();
  return {
    kind,
    leaseMs: env.ANNEAL_JOB_LEASE_MS,
    heartbeatMs: env.ANNEAL_JOB_HEARTBEAT_MS,
    stallMs: env.ANNEAL_JOB_STALL_MS,
    pollMs: env.ANNEAL_JOB_POLL_MS,
    maxAttempts: env.ANNEAL_JOB_MAX_ATTEMPTS,
    concurrency: Math.max(1, env.ANNEAL_TRAINING_CONCURRENCY),
  };
}

const TRAIN_THREAD = new URL("./train/train-thread.mjs", import.meta.url);

export class TrainingRunner {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private stopping = false;
  private loops: Promise<void>[] = [];
  private sleepers = new Set<() => void>();
  /** One training thread per concurrent slot, kept between jobs (starting one costs ~0.6 s). */
  private slots: ThreadSlot[] = [];
  private unregister = () => undefined as unknown;

  constructor(readonly settings: RunnerSettings) {}

  async start(): Promise<void> {
    await this.register();
    this.unregister = registerLocalRunner(this);
    this.slots = Array.from({ length: this.settings.concurrency }, () => ({ thread: null, jobId: null }));
    this.loops = this.slots.map((slot) => this.loop(slot));
  }

  /** Stops claiming, stops running threads and hands their jobs back to the queue (not counted
   *  as a failed attempt), so a restart or another worker resumes them. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unregister();
    this.wake();
    await Promise.all(this.slots.map(async (slot) => {
      const { jobId } = slot;
      await slot.thread?.terminate();
      if (jobId) await releaseJob(jobId, this.workerId).catch(() => undefined);
    }));
    await Promise.all(this.loops);
    await getDb().trainingWorker.delete({ where: { id: this.workerId } }).catch(() => undefined);
  }

  wake(): void {
    for (const resolve of this.sleepers) resolve();
  }

  private async loop(slot: ThreadSlot): Promise<void> {
    while (!this.stopping) {
      try {
        await this.register();
        await failAbandonedJobs(this.settings.maxAttempts);
        const claimed = await claimJob(this.workerId, this.settings.leaseMs, this.settings.maxAttempts);
        if (claimed) {
          slot.jobId = claimed.id;
          await this.run(claimed.id, claimed.attempts, slot).finally(() => (slot.jobId = null));
          continue;
        }
      } catch (error) {
        if (this.stopping) return;
        log.error("training runner: a queue round trip failed", { error });
      }
      await this.sleep(this.settings.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /** Checks in (system-check counts live workers) and forgets workers gone for a day. */
  private async register(): Promise<void> {
    const { kind } = this.settings;
    await getDb().trainingWorker.upsert({
      where: { id: this.workerId },
      create: { id: this.workerId, hostname: os.hostname(), pid: process.pid, kind },
      update: { lastSeenAt: new Date() },
    });
    await getDb().trainingWorker.deleteMany({ where: { lastSeenAt: { lt: new Date(Date.now() - 86_400_000) } } });
  }

  /** Trains one claimed job to its end (or until the lease is lost or the runner stops). */
  private async run(jobId: string, attempt: number, slot: ThreadSlot): Promise<void> {
    const { workerId } = this;
    let loaded: LoadedJob;
    try {
      loaded = await loadJobTask(jobId, attempt);
    } catch (error) {
      await endOwnedJob(jobId, workerId, "failed", (error as Error).message);
      return;
    }
    const worker = (slot.thread ??= startThread(slot));

    // Changed by callbacks; `as` keeps TypeScript from narrowing it to its initial value.
    let outcome = "running" as "running" | "succeeded" | "ended" | "lost";
    const stopThread = () => void worker.terminate();
    const cancel = async () => {
      stopThread();
      outcome = (await endOwnedJob(jobId, workerId, "cancelled", "Cancelled by a user before it finished.")) ? "ended" : "lost";
    };
    // The job's writes, one at a time in the order the thread reported them; none after the one
    // that ended the job or found the lease gone.
    let chain: Promise<void> = Promise.resolve();
    const write = (work: () => Promise<LeaseState>, ends?: "succeeded" | "ended") => {
      chain = chain.then(async () => {
        if (outcome !== "running") return;
        const state = await work();
        if (!state.owned) {
          outcome = "lost";
          stopThread();
        } else if (ends) outcome = ends;
        else if (state.cancelRequested) await cancel();
      }).catch((error: unknown) => log.error("training runner: writing a job's progress failed", { jobId, error }));
    };
    const owned = (done: Promise<boolean>) => done.then((ok) => ({ owned: ok, cancelRequested: false }));

    let lastHeard = Date.now();
    const heartbeat = setInterval(() => {
      this.register().catch(() => undefined);
      if (Date.now() - lastHeard > this.settings.stallMs && outcome === "running") {
        const minutes = this.settings.stallMs / 60_000;
        write(() => owned(endOwnedJob(jobId, workerId, "failed", `The training thread reported nothing for ${minutes >= 1 ? `${minutes.toFixed(0)} min` : `${this.settings.stallMs} ms`} (ANNEAL_JOB_STALL_MS) and was stopped.`)), "ended");
        stopThread();
        return;
      }
      renewLease(jobId, workerId, this.settings.leaseMs).then((state) => {
        if (!state.owned && outcome === "running") {
          outcome = "lost";
          stopThread();
        } else if (state.cancelRequested) write(async () => state);
      }, (error: unknown) => log.warn("training runner: a heartbeat failed", { jobId, error }));
    }, this.settings.heartbeatMs);

    // Steps reported while an earlier write is in flight are written together, in one transaction:
    // a fast job (ms per step) must not cost a transaction per step on a shared database.
    let stepsDone = 0;
    const pendingSteps: { type: "gradient_step"; data: Record<string, number> }[] = [];
    const flushSteps = () => {
      const events = pendingSteps.splice(0);
      return events.length ? appendOwnedEvents(jobId, workerId, events, { stepsDone: (stepsDone += events.length) }) : Promise.resolve({ owned: true, cancelRequested: false });
    };
    let jobOver!: () => void;
    const over = new Promise<void>((resolve) => (jobOver = resolve));
    const onMessage = (message: ThreadMessage) => {
      lastHeard = Date.now();
      if (message.type === "done" || message.type === "error") jobOver();
      if (message.type === "started") {
        write(() => loaded.started(workerId, message.numSequences));
      } else if (message.type === "step") {
        pendingSteps.push({ type: "gradient_step", data: attempt > 1 ? { ...message.metrics, attempt } : message.metrics });
        if (pendingSteps.length === 1) write(flushSteps);
      } else if (message.type === "done") {
        write(flushSteps);
        write(() => owned(completeJob(loaded, workerId, message.metrics, stepsDone)), "succeeded");
      } else {
        write(() => owned(endOwnedJob(jobId, workerId, "failed", message.message)), "ended");
      }
    };
    const onError = (error: Error) => {
      write(() => owned(endOwnedJob(jobId, workerId, "failed", `The training thread crashed: ${error.message}`)), "ended");
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.once("exit", jobOver);
    worker.postMessage(loaded.task);
    await over;
    worker.off("message", onMessage).off("error", onError).off("exit", jobOver);
    clearInterval(heartbeat);
    await chain;
    if (outcome === "running" && !this.stopping) {
      write(() => owned(endOwnedJob(jobId, workerId, "failed", "The training thread stopped without a result (out of memory?).")), "ended");
      await chain;
    }
    if (outcome !== "succeeded") removeJobOutputs(loaded.task);
  }
}

interface ThreadSlot {
  thread: Worker | null;
  /** The job the slot is training. */
  jobId: string | null;
}

/** A training thread for a slot; the slot forgets it when it exits (a crash, or stopped to cancel). */
function startThread(slot: ThreadSlot): Worker {
  const thread = new Worker(TRAIN_THREAD);
  thread.once("exit", () => {
    if (slot.thread === thread) slot.thread = null;
  });
  return thread;
}
