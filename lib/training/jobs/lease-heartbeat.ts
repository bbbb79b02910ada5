// While a job trains: every heartbeatMs the worker checks in, renews the job's lease (which also
// brings a cancellation request), and fails a thread that has reported nothing for stallMs instead
// of holding the job forever.
import { log } from "@/lib/log";
import type { OwnedJob } from "./owned-job";
import { renewJobLease } from "./queue";

export interface HeartbeatOptions {
  timing: { leaseMs: number; heartbeatMs: number; stallMs: number };
  /** When the thread last reported anything (Date.now()). */
  lastHeard: () => number;
  /** The worker's check-in (system-check counts live workers). */
  checkIn: () => Promise<void>;
}

/** Starts the heartbeat of a job; the function it returns stops it. */
export function startLeaseHeartbeat(job: OwnedJob, { timing, lastHeard, checkIn }: HeartbeatOptions): () => void {
  const { leaseMs, heartbeatMs, stallMs } = timing;
  const timer = setInterval(() => {
    checkIn().catch(() => undefined);
    if (Date.now() - lastHeard() > stallMs && job.outcome === "running") {
      job.fail(`The training thread reported nothing for ${stallTime(stallMs)} (ANNEAL_JOB_STALL_MS) and was stopped.`);
      job.stopThread();
      return;
    }
    renewJobLease(job.jobId, job.workerId, leaseMs).then(
      (state) => {
        if (!state.owned && job.outcome === "running") job.lose();
        // The cancellation goes through the job's writes, after those already queued.
        else if (state.cancelRequested) job.write(async () => state);
      },
      (error: unknown) => log.warn("training runner: a heartbeat failed", { jobId: job.jobId, error }),
    );
  }, heartbeatMs);
  return () => clearInterval(timer);
}

const stallTime = (ms: number) => (ms >= 60_000 ? `${(ms / 60_000).toFixed(0)} min` : `${ms} ms`);
