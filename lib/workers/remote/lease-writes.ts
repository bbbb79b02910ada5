// A remote worker's JobWrites (lib/training/jobs/job-writes.ts): a training thread's progress sent to
// Anneal under the lease's token — steps as events, saved states and the checkpoint uploaded in
// chunks then committed, the end as complete or fail. A 409 (the lease was lost), or a server out of
// reach for longer than the lease lasts, answers "not owned": the job's writes stop there.
import fs from "node:fs";
import path from "node:path";
import type { JobWrites } from "@/lib/training/jobs/job-writes";
import { CANCELLED_MESSAGE } from "@/lib/training/jobs/job-writes";
import type { LeaseState } from "@/lib/training/jobs/queue";
import { uploadFile } from "./chunked-upload";
import { Conflict, ServerUnreachable, WorkerApiError, type WorkerClient } from "./worker-client";

/** The saved-state format Anneal's trainer writes (train/training-state.ts); a later attempt resumes only from it. */
export const NODE_STATE_FORMAT = "anneal-node-1";

export interface Lease {
  token: string;
  job_id: string;
  attempt: number;
  lease_ms: number;
  heartbeat_ms: number;
}

const LOST: LeaseState = { owned: false, cancelRequested: false };

export function leaseJobWrites(client: WorkerClient, lease: Lease, checkpointFile: string): JobWrites {
  const route = `/v1/workers/leases/${lease.token}`;
  // Calls are tried again until the lease would have expired since the last answer that renewed it.
  let renewedAt = Date.now();
  const deadline = () => renewedAt + lease.lease_ms;
  const owned = (cancelRequested = false): LeaseState => {
    renewedAt = Date.now();
    return { owned: true, cancelRequested };
  };
  /** The work's answer, or `lost` when the lease is gone or the server stayed out of reach past it. */
  const underLease = async <T>(work: () => Promise<T>, lost: T): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      if (error instanceof Conflict || (error instanceof ServerUnreachable && Date.now() >= deadline())) return lost;
      throw error;
    }
  };
  const fail = (body: { message: string; cancelled?: boolean }) =>
    underLease(async () => (await client.json("POST", `${route}/fail`, { body, deadline: deadline() }), true), false);

  return {
    // Anneal recorded the run when it granted the lease, and training_started when it served the inputs.
    started: async () => owned(),
    steps: (events) =>
      underLease(async () => owned((await client.json<{ cancel_requested: boolean }>("POST", `${route}/events`, { body: { events }, deadline: deadline() })).cancel_requested), LOST),
    saved: (state) =>
      underLease(async () => {
        // Saved again while this one waited for its turn: only the newer one is worth sending.
        if (supersededState(state.file)) {
          fs.rmSync(state.file, { force: true });
          return owned();
        }
        const upload_id = await uploadFile(client, lease.token, state.file, "state", deadline());
        await client.json("POST", `${route}/state`, { body: { upload_id, step: state.step, format: NODE_STATE_FORMAT }, deadline: deadline() });
        fs.rmSync(state.file, { force: true }); // Anneal holds it now; a resumed attempt downloads it
        return owned();
      }, LOST),
    complete: (metrics) =>
      underLease(async () => {
        const upload_id = await uploadFile(client, lease.token, checkpointFile, "checkpoint", deadline());
        try {
          await client.json("POST", `${route}/complete`, { body: { upload_id, metrics }, deadline: deadline() });
        } catch (error) {
          // Refused (it does not fit the base): the job fails saying why, and this worker is done with it.
          if (!(error instanceof WorkerApiError)) throw error;
          await fail({ message: `Anneal refused the checkpoint: ${error.message}` });
          return false;
        }
        return true;
      }, false),
    fail: (message) => fail({ message }),
    cancel: () => fail({ message: CANCELLED_MESSAGE, cancelled: true }),
    // Once per beat: a beat that fails is followed by the next, while the lease lasts.
    renew: () =>
      underLease(async () => owned((await client.json<{ cancel_requested: boolean }>("POST", `${route}/heartbeat`, { deadline: 0 })).cancel_requested), LOST),
  };
}

/** Ends a lease outside a training thread's writes: the job fails (it cannot start here), or goes
 *  back to the queue on a clean shutdown (`release`: not counted as an attempt). A lease already
 *  lost, or a server out of reach, leaves nothing more to do. */
export async function endLease(client: WorkerClient, lease: Lease, body: { message: string; release?: boolean }): Promise<void> {
  await client.json("POST", `/v1/workers/leases/${lease.token}/fail`, { body, deadline: Date.now() + lease.lease_ms }).catch(() => undefined);
}

/** Whether the thread saved a later state beside this one (a<attempt>-s<step>.state, state-saver.ts). */
function supersededState(file: string): boolean {
  const stepOf = (name: string) => Number(/-s(\d+)\.state$/.exec(name)?.[1] ?? -1);
  const step = stepOf(path.basename(file));
  return fs.readdirSync(path.dirname(file)).some((name) => stepOf(name) > step);
}
