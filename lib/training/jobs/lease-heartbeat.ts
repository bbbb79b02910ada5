// While a job trains: every heartbeatMs the worker checks in, renews the job's lease (which also
// brings a cancellation request), and fails a thread that has reported nothing for stallMs instead
// of holding the job forever.
import { log } from "@/lib/log";
import type { OwnedJob } from "./owned-job";

export interface HeartbeatOptions {
  timing: { heartbeatMs: number; stallMs: number };
  /** When the thread last reported anything (Date.now()). */
  lastHeard: () => number;
  /** The worker's check-in (system-check counts live workers); a remote worker's heartbeat is its check-in. */
  checkIn?: () => Promise<void>;
}

/** Starts the heartbeat of a job; the function it returns stops it. */
export function startLeaseHeartbeat(job: OwnedJob, { timing, lastHeard, checkIn }: HeartbeatOptions): () => void {
  const { heartbeatMs, stallMs } = timing;
  const timer = setInterval(() => {
    checkIn?.().catch(() => undefined);
    if (Date.now() - lastHeard() > stallMs && job.outcome === "running") {
      job.fail(`The training thread reported nothing for ${stallTime(stallMs)} (ANNEAL_JOB_STALL_MS) and was stopped.`);
      job.stopThread();
      return;
    }
    job.writes.renew().then(
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
