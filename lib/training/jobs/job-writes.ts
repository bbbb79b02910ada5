// Where a running job's progress goes while one worker holds it: the database, under the runner's
// claim (databaseJobWrites, below), or Anneal's HTTP API under a remote worker's lease
// (lib/workers/remote/lease-writes.ts). ThreadReports and OwnedJob speak only this, so the two
// kinds of worker report a training thread's progress by the same rules.
import type { JobReport } from "./job-report";
import type { LoadedJob } from "./load-job-task";
import { completeJob } from "./complete-job";
import { appendOwnedEvents, endOwnedJob, renewJobLease, type LeaseState } from "./queue";
import { commitSavedState } from "./saved-states";
import type { SavedState } from "./train/state-saver";

export type StepEvent = { type: "gradient_step"; data: Record<string, number> };

/** Each write answers whether the job is still this worker's (`owned: false`: write nothing more). */
export interface JobWrites {
  /** The thread started: `numSequences` steps in all, `fromStep` of them done by a saved state. */
  started(numSequences: number, fromStep: number): Promise<LeaseState>;
  /** Steps for the feed; `stepsDone` counts the feed's steps with them. */
  steps(events: StepEvent[], stepsDone: number): Promise<LeaseState>;
  /** A state the thread saved, committed as the job's resume point (after the steps before it). */
  saved(state: SavedState): Promise<LeaseState>;
  complete(metrics: Record<string, number>, stepsDone: number, report: JobReport | null): Promise<boolean>;
  fail(message: string): Promise<boolean>;
  cancel(): Promise<boolean>;
  /** Extends the lease (the heartbeat); brings a cancellation request. */
  renew(): Promise<LeaseState>;
}

export const CANCELLED_MESSAGE = "Cancelled by a user before it finished.";

/** The runner's writes: conditional on its claim of the job in the database. */
export function databaseJobWrites(loaded: LoadedJob, workerId: string, leaseMs: number): JobWrites {
  const { jobId } = loaded;
  return {
    started: (numSequences, fromStep) => loaded.started(workerId, numSequences, fromStep),
    steps: (events, stepsDone) => appendOwnedEvents(jobId, workerId, events, { stepsDone }),
    saved: (state) => commitSavedState(jobId, workerId, state),
    complete: (metrics, stepsDone, report) => completeJob(loaded, workerId, metrics, stepsDone, report),
    fail: (message) => endOwnedJob(jobId, workerId, "failed", message),
    cancel: () => endOwnedJob(jobId, workerId, "cancelled", CANCELLED_MESSAGE),
    renew: () => renewJobLease(jobId, workerId, leaseMs),
  };
}
