// A leased job's progress from its remote worker (docs/workers.md, steps 4, 5 and 9): heartbeats,
// gradient steps for the feed, and its failure, cancellation or release. Each write is the queue's
// own owned write under the lease's owner, so a stale token writes nothing (409).
import type { WorkerPrincipal } from "@/lib/auth/principal";
import { getEnv } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { CANCELLED_MESSAGE } from "@/lib/training/jobs/job-writes";
import { appendOwnedEvents, endOwnedJob, releaseJob, renewJobLease } from "@/lib/training/jobs/queue";
import { removeJobStates } from "@/lib/training/jobs/saved-states";
import { leaseLost, type OwnedLease } from "./owned-lease";

/** Renews the lease, and the worker's last-seen time (a worker busy with a long job leases nothing). */
export async function heartbeat(principal: WorkerPrincipal, lease: OwnedLease) {
  const leaseMs = getEnv().ANNEAL_JOB_LEASE_MS;
  const state = await renewJobLease(lease.jobId, lease.owner, leaseMs);
  if (!state.owned) throw leaseLost();
  await getDb().remoteWorker.updateMany({ where: { keyId: principal.workerKey.id, instance: lease.instance }, data: { lastSeenAt: new Date() } });
  return { cancel_requested: state.cancelRequested, expires_at: new Date(Date.now() + leaseMs).toISOString() };
}

/** Appends the worker's gradient steps; steps the feed already has (a resumed attempt redoes the
 *  steps after its state) are skipped, as the embedded runner skips them. */
export async function appendLeaseEvents(lease: OwnedLease, events: { type: "gradient_step"; data: { step: number } & Record<string, number> }[]) {
  let last = lease.stepsDone;
  const fresh = [];
  for (const event of events) {
    if (event.data.step <= last) continue;
    last = event.data.step;
    fresh.push({ type: event.type, data: lease.attempt > 1 ? { ...event.data, attempt: lease.attempt } : event.data });
  }
  const state = await appendOwnedEvents(lease.jobId, lease.owner, fresh, fresh.length ? { stepsDone: last } : {});
  if (!state.owned) throw leaseLost();
  return { cancel_requested: state.cancelRequested, written: fresh.length };
}

/** Ends the job as failed or cancelled, or hands it back to the queue (not counted as an attempt,
 *  its saved state kept for the next). */
export async function failLease(lease: OwnedLease, input: { message: string; cancelled: boolean; release: boolean }) {
  if (input.release) {
    if (!(await releaseJob(lease.jobId, lease.owner))) throw leaseLost();
    return { status: "queued" as const };
  }
  const status = input.cancelled ? ("cancelled" as const) : ("failed" as const);
  if (!(await endOwnedJob(lease.jobId, lease.owner, status, input.cancelled ? CANCELLED_MESSAGE : input.message))) throw leaseLost();
  removeJobStates(lease.jobId);
  return { status };
}
