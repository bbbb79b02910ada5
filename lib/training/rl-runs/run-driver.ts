// Runs RL runs in a training process (npm start's, npm run worker): claims a run, holds its lease
// with a heartbeat, and drives it (run-iterations.ts) until it ends, the lease is lost, or the
// process stops — then the run goes back to the queue and the next process continues it.
import { randomBytes } from "node:crypto";
import os from "node:os";
import { log } from "@/lib/log";
import { registerLocalRunner } from "@/lib/training/jobs/wake";
import { driveRun } from "./run-iterations";
import { claimRun, endOwnedRun, failAbandonedRuns, releaseRun, renewRunLease } from "./run-lease";

export interface RunDriverSettings {
  leaseMs: number;
  heartbeatMs: number;
  pollMs: number;
  /** Claims a run gets; when the process of the last one dies too, the run fails. */
  maxAttempts: number;
  /** Runs driven at once (each mostly waits for its jobs). */
  concurrency: number;
}

/** Runs take the job queue's lease timing and attempt limit; two are driven at once per process. */
export function runDriverSettings(jobs: Omit<RunDriverSettings, "concurrency">): RunDriverSettings {
  return { leaseMs: jobs.leaseMs, heartbeatMs: jobs.heartbeatMs, pollMs: jobs.pollMs, maxAttempts: jobs.maxAttempts, concurrency: 2 };
}

export class RlRunDriver {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}:rl-runs`;
  private stopping = false;
  private loops: Promise<void>[] = [];
  private sleepers = new Set<() => void>();
  private running = new Map<string, AbortController>();
  private unregister = () => undefined as unknown;

  constructor(readonly settings: RunDriverSettings) {}

  start(): void {
    this.unregister = registerLocalRunner(this);
    this.loops = Array.from({ length: this.settings.concurrency }, () => this.loop());
  }

  /** Stops driving; runs in progress go back to the queue where they are. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unregister();
    for (const controller of this.running.values()) controller.abort();
    this.wake();
    await Promise.all(this.loops);
  }

  wake(): void {
    for (const resolve of this.sleepers) resolve();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      try {
        await failAbandonedRuns(this.settings.maxAttempts);
        const runId = await claimRun(this.workerId, this.settings.leaseMs, this.settings.maxAttempts);
        if (runId) {
          await this.drive(runId);
          continue;
        }
      } catch (error) {
        if (this.stopping) return;
        log.error("rl runs: a queue round trip failed", { error });
      }
      await this.sleep(this.settings.pollMs);
    }
  }

  private async drive(runId: string): Promise<void> {
    const controller = new AbortController();
    this.running.set(runId, controller);
    let leaseLost = false;
    const heartbeat = setInterval(() => {
      renewRunLease(runId, this.workerId, this.settings.leaseMs).then((state) => {
        if (!state.owned) leaseLost = true;
        if (!state.owned || state.cancelRequested) controller.abort();
      }, (error: unknown) => log.error("rl runs: lease renewal failed", { error, runId }));
    }, this.settings.heartbeatMs);
    const handle = { runId, workerId: this.workerId, pollMs: this.settings.pollMs, signal: controller.signal, sleep: (ms: number) => this.sleep(ms, controller.signal) };
    try {
      await driveRun(handle).catch(async (error: unknown) => {
        if (controller.signal.aborted) return; // stopped, lease lost or cancelled: not the run's failure
        log.error("rl runs: a run failed", { error, runId });
        await endOwnedRun(runId, this.workerId, "failed", (error as Error).message);
      });
      // Aborted for a cancel: one more look at the run ends it as cancelled.
      if (controller.signal.aborted && !this.stopping && !leaseLost) await driveRun({ ...handle, signal: new AbortController().signal });
    } catch (error) {
      log.error("rl runs: could not record a run's end", { error, runId });
    } finally {
      clearInterval(heartbeat);
      this.running.delete(runId);
      if (this.stopping) await releaseRun(runId, this.workerId).catch(() => undefined);
    }
  }

  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
      signal?.addEventListener("abort", done);
    });
  }
}
