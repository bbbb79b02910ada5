// A training runner: claims jobs from the queue, trains each on a worker thread, and writes what
// the thread reports (events, progress, the checkpoint, the end) while it holds the job's lease.
// One runs inside `npm start` (embedded); `npm run worker` runs more against PostgreSQL.
import { randomBytes } from "node:crypto";
import os from "node:os";
import { getEnv } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { baseModelCatalogue, namesOf } from "@/lib/inference/base-models";
import { trainsLocally } from "@/lib/training/trainable-base";
import { log } from "@/lib/log";
import { databaseJobWrites } from "./job-writes";
import { startLeaseHeartbeat } from "./lease-heartbeat";
import { loadJobTask, removeJobOutputs, type LoadedJob, type SaveEvery } from "./load-job-task";
import { OwnedJob } from "./owned-job";
import { claimJob, endOwnedJob, failAbandonedJobs, releaseJob } from "./queue";
import { removeJobStates, removeStatesOfEndedJobs } from "./saved-states";
import { ThreadReports } from "./thread-reports";
import { newSlot, slotThread, trainOnThread, type ThreadSlot } from "./training-thread";
import { VocabularyThread } from "./vocabulary/vocabulary-host";
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
  /** How often a running job saves its state for a retry to resume from (default: the environment's). */
  saveEvery?: SaveEvery;
  /** How long `stop` waits for a running job's state to be saved (default: ANNEAL_SHUTDOWN_DRAIN_MS). */
  drainMs?: number;
}

/** Saved states of jobs ended elsewhere are looked for this often. */
const STATE_SWEEP_MS = 10_000;

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
    saveEvery: saveEveryFromEnv(),
  };
}

function saveEveryFromEnv(): SaveEvery {
  const env = getEnv();
  return { steps: env.ANNEAL_TRAINING_SAVE_STEPS, ms: env.ANNEAL_TRAINING_SAVE_SECONDS * 1000 };
}

export class TrainingRunner {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  private stopping = false;
  private loops: Promise<void>[] = [];
  private sleepers = new Set<() => void>();
  /** One training thread per concurrent slot, kept between jobs (starting one costs ~0.6 s). */
  private slots: ThreadSlot[] = [];
  /** llama.cpp's vocabularies, for the training threads of models Anneal did not write. */
  private readonly vocabularies = new VocabularyThread();
  private unregister = () => undefined as unknown;
  private sweptAt = 0;

  constructor(readonly settings: RunnerSettings) {}

  async start(): Promise<void> {
    await this.register();
    this.unregister = registerLocalRunner(this);
    this.slots = Array.from({ length: this.settings.concurrency }, newSlot);
    this.loops = this.slots.map((slot) => this.loop(slot));
  }

  /** Stops claiming, asks running threads to save their state after the step in progress (waiting
   *  up to `drainMs` for it to be written), stops them and hands their jobs back to the queue (not
   *  counted as a failed attempt), so a restart or another worker resumes them with no step redone. */
  async stop(drainMs = this.settings.drainMs ?? getEnv().ANNEAL_SHUTDOWN_DRAIN_MS): Promise<void> {
    this.stopping = true;
    this.unregister();
    this.wake();
    await Promise.all(this.slots.map(async (slot, i) => {
      const { jobId } = slot;
      if (jobId) {
        Atomics.store(slot.stopRequest, 0, 1);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([this.loops[i], new Promise((resolve) => (timer = setTimeout(resolve, drainMs)))]);
        clearTimeout(timer);
      }
      await slot.thread?.terminate();
      if (jobId) await releaseJob(jobId, this.workerId).catch(() => undefined);
    }));
    await Promise.all(this.loops);
    await this.vocabularies.dispose();
    await getDb().trainingWorker.delete({ where: { id: this.workerId } }).catch(() => undefined);
  }

  wake(): void {
    for (const resolve of this.sleepers) resolve();
  }

  private async loop(slot: ThreadSlot): Promise<void> {
    while (!this.stopping) {
      try {
        await this.register();
        for (const id of await failAbandonedJobs(this.settings.maxAttempts)) removeJobStates(id);
        await this.sweepStates();
        const claimed = await claimJob(this.workerId, this.settings.leaseMs, this.settings.maxAttempts, { baseModels: await localBaseNames() });
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

  private async sweepStates(): Promise<void> {
    if (Date.now() - this.sweptAt < STATE_SWEEP_MS) return;
    this.sweptAt = Date.now();
    await removeStatesOfEndedJobs();
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
    const loaded = await this.load(jobId, attempt);
    if (!loaded) return;
    const thread = slotThread(slot);
    const job = new OwnedJob(jobId, databaseJobWrites(loaded, this.workerId, this.settings.leaseMs), () => void thread.terminate());
    const reports = new ThreadReports(job, loaded.reportedSteps, attempt);
    const stopHeartbeat = startLeaseHeartbeat(job, { timing: this.settings, lastHeard: () => reports.lastHeard, checkIn: () => this.register() });
    await trainOnThread(thread, { ...loaded.task, stopRequest: slot.stopRequest }, reports, this.vocabularies);
    stopHeartbeat();
    await job.settled();
    // A thread that exits without its end (killed by the OS) fails the job, unless the runner
    // stopped it: then the job goes back to the queue.
    if (job.outcome === "running" && !this.stopping) {
      job.fail("The training thread stopped without a result (out of memory?).");
      await job.settled();
    }
    if (job.outcome !== "succeeded") removeJobOutputs(loaded.task);
    // Ended here: its saved states go. Lost to another worker, or handed back: they stay for the next attempt.
    if (job.outcome === "succeeded" || job.outcome === "ended") removeJobStates(jobId);
  }

  /** The claimed job's task, or null when it cannot be trained (the job fails saying why). */
  private async load(jobId: string, attempt: number): Promise<LoadedJob | null> {
    try {
      return await loadJobTask(jobId, attempt, this.settings.saveEvery ?? saveEveryFromEnv());
    } catch (error) {
      if (await endOwnedJob(jobId, this.workerId, "failed", (error as Error).message)) removeJobStates(jobId);
      return null;
    }
  }
}

/** The bases this runner trains, by every name a model may store: an upstream base's jobs are left
 *  to remote workers (docs/workers.md). */
async function localBaseNames(): Promise<string[]> {
  return (await baseModelCatalogue()).models.filter(trainsLocally).flatMap(namesOf);
}
