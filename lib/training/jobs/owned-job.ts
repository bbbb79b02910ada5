// One claimed job while this worker holds its lease: its writes go one at a time, in the order
// they were asked for, and none after the one that ended the job or found the lease gone. A write
// that comes back with a cancellation request ends the job as cancelled and stops its thread.
import { retryOnBound } from "@/lib/db/bound-errors";
import { log } from "@/lib/log";
import type { JobWrites } from "./job-writes";
import type { LeaseState } from "./queue";

/** succeeded: the checkpoint is in; ended: failed or cancelled by this worker; lost: the lease
 *  went to another worker (or the job ended elsewhere), so this worker writes nothing more. */
export type JobOutcome = "running" | "succeeded" | "ended" | "lost";

export class OwnedJob {
  outcome: JobOutcome = "running";
  private queued: Promise<void> = Promise.resolve();

  constructor(
    readonly jobId: string,
    /** Where its writes go (the database, or Anneal's API for a remote worker). */
    readonly writes: JobWrites,
    /** Stops the job's training thread (it exits; the runner's slot starts a new one). */
    readonly stopThread: () => void,
  ) {}

  /** Queues a write; `ends` is the outcome it brings when it finds the job still owned. Each write
   *  is one transaction checked against the lease, so one that hit a database bound (lib/db/bounds.ts)
   *  is tried again (for up to 20 s, inside the 30 s lease) rather than lost. */
  write(work: () => Promise<LeaseState>, ends?: "succeeded" | "ended"): void {
    this.queued = this.queued
      .then(async () => {
        if (this.outcome !== "running") return;
        const state = await retryOnBound(work);
        if (!state.owned) this.lose();
        else if (ends) this.outcome = ends;
        else if (state.cancelRequested) await this.cancel();
      })
      .catch((error: unknown) => log.error("training runner: writing a job's progress failed", { jobId: this.jobId, error }));
  }

  /** Queues the job's successful end; `complete` answers whether the lease was still held. */
  succeed(complete: () => Promise<boolean>): void {
    this.write(() => complete().then(ownedOnly), "succeeded");
  }

  /** Queues the job's failure with the message its events and error show. */
  fail(message: string): void {
    this.write(() => this.writes.fail(message).then(ownedOnly), "ended");
  }

  /** The lease is gone: write nothing more, and stop training for nobody. */
  lose(): void {
    this.outcome = "lost";
    this.stopThread();
  }

  /** Resolves once the writes queued so far are done. */
  settled(): Promise<void> {
    return this.queued;
  }

  private async cancel(): Promise<void> {
    this.stopThread();
    this.outcome = (await this.writes.cancel()) ? "ended" : "lost";
  }
}

/** The state of a write that only says whether the job was still owned. */
const ownedOnly = (owned: boolean): LeaseState => ({ owned, cancelRequested: false });
