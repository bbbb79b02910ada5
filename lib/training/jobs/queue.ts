// The durable job queue in the database. A worker claims the oldest runnable job with FOR UPDATE
// SKIP LOCKED (so two workers never take the same row) and holds it with a lease it renews; every
// write of a running job (events, progress, its end) is conditional on still owning that lease, so
// a worker that lost it (it stalled, another took over) can no longer touch the job. A job is
// runnable when it is queued, or running with an expired lease (its worker died) and claims left,
// and no earlier job of its model is unfinished: jobs of one model run in submission order.
import type { Prisma } from "@/lib/db/generated/client";
import { getDb } from "@/lib/db/client";
import { uuid7 } from "@/lib/db/uuid7";
import { holdLease, lockOwnedRow, renewLease, type LeaseState } from "@/lib/training/leased-rows";
import type { EventType, JobKind } from "./schemas";

type Tx = Prisma.TransactionClient;

export type { LeaseState };

export interface ClaimedJob {
  id: string;
  modelId: string;
  kind: JobKind;
  attempts: number;
  /** The model's base, as the model names it. */
  baseModel: string;
}

/** Which jobs a claim may take (each field, when given, narrows it): a remote worker's capabilities
 *  and its key's team — the job's kind, its model's base (by any of its names), how it trains (a LoRA
 *  adapter of at most maxRank, or full weights), the model's team — or one job by id (a job bundle).
 *  Jobs it cannot take stay for others. */
export interface ClaimFilter {
  kinds?: readonly JobKind[];
  baseModels?: readonly string[];
  modes?: readonly ("lora" | "full")[];
  maxRank?: number;
  teamId?: string | null;
  jobId?: string;
}

/** The filter's conditions on the candidate job `c` (its model `m`, project `p`), numbered after `$3`. */
function filterSql(filter: ClaimFilter): { sql: string; args: unknown[] } {
  const args: unknown[] = [];
  const arg = (value: unknown) => `$${args.push(value) + 3}`;
  const job: string[] = [];
  const model: string[] = [];
  if (filter.jobId !== undefined) job.push(`c.id = ${arg(filter.jobId)}::uuid`);
  if (filter.kinds) job.push(`c.kind = ANY(${arg(filter.kinds)}::text[])`);
  if (filter.baseModels) model.push(`m."baseModel" = ANY(${arg(filter.baseModels)}::text[])`);
  if (filter.modes) model.push(`(CASE WHEN m.lora IS NULL THEN 'full' ELSE 'lora' END) = ANY(${arg(filter.modes)}::text[])`);
  if (filter.maxRank !== undefined) model.push(`(m.lora IS NULL OR (m.lora->>'rank')::int <= ${arg(filter.maxRank)})`);
  if (filter.teamId) model.push(`p."teamId" = ${arg(filter.teamId)}::uuid`);
  if (model.length) {
    job.push(`EXISTS (SELECT 1 FROM "Model" m JOIN "Project" p ON p.id = m."projectId" WHERE m.id = c."modelId" AND ${model.join(" AND ")})`);
  }
  return { sql: job.map((condition) => `\n           AND ${condition}`).join(""), args };
}

export async function claimJob(workerId: string, leaseMs: number, maxAttempts: number, filter: ClaimFilter = {}): Promise<ClaimedJob | null> {
  const narrowed = filterSql(filter);
  const rows = await getDb().$queryRawUnsafe<ClaimedJob[]>(
    `UPDATE "TrainingJob" j
        SET status = 'running', "leaseOwner" = $1, "leaseExpiresAt" = now() + make_interval(secs => $2::float8 / 1000),
            attempts = j.attempts + 1, "startedAt" = coalesce(j."startedAt", now())
      WHERE j.id = (
        SELECT c.id FROM "TrainingJob" c
         WHERE (c.status = 'queued' OR (c.status = 'running' AND c."leaseExpiresAt" < now() AND c.attempts < $3))
           AND NOT EXISTS (SELECT 1 FROM "TrainingJob" e
                            WHERE e."modelId" = c."modelId" AND e.seq < c.seq AND e.status IN ('queued', 'running'))${narrowed.sql}
         ORDER BY c.seq
         FOR UPDATE SKIP LOCKED
         LIMIT 1)
      RETURNING j.id, j."modelId", j.kind, j.attempts, (SELECT "baseModel" FROM "Model" WHERE id = j."modelId") AS "baseModel"`,
    workerId, leaseMs, maxAttempts, ...narrowed.args,
  );
  return rows[0] ?? null;
}

/** Jobs whose worker died on their last allowed claim: failed, with their terminal event. */
export async function failAbandonedJobs(maxAttempts: number): Promise<string[]> {
  const rows = await getDb().$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM "TrainingJob" WHERE status = 'running' AND "leaseExpiresAt" < now() AND attempts >= $1`,
    maxAttempts,
  );
  const failed: string[] = [];
  for (const { id } of rows) {
    const message = `The training worker stopped responding during each of ${maxAttempts} attempts (crashed or killed); the job was given up.`;
    const ended = await getDb().$transaction(async (tx) => {
      const n = await tx.$executeRawUnsafe(
        `UPDATE "TrainingJob" SET status = 'failed', error = $2, "finishedAt" = now(), "leaseOwner" = NULL, "leaseExpiresAt" = NULL
          WHERE id = $1::uuid AND status = 'running' AND "leaseExpiresAt" < now() AND attempts >= $3`,
        id, message, maxAttempts,
      );
      if (n === 1) await insertEvent(tx, id, "training_failed", { error_message: message });
      return n === 1;
    });
    if (ended) failed.push(id);
  }
  return failed;
}

/** Extends this worker's lease on a running job. */
export const renewJobLease = (jobId: string, workerId: string, leaseMs: number): Promise<LeaseState> => renewLease("TrainingJob", jobId, workerId, leaseMs);

/** Holds this worker's lease on a running job for at least `ms` from now (holdLease). */
export const holdJobLease = (jobId: string, workerId: string, ms: number): Promise<LeaseState> => holdLease("TrainingJob", jobId, workerId, ms);

/** Locks the job row if this worker still owns it; false otherwise (the caller must stop). */
export async function lockOwnedJob(tx: Tx, jobId: string, workerId: string): Promise<boolean> {
  return (await lockOwnedJobState(tx, jobId, workerId)).owned;
}

const lockOwnedJobState = (tx: Tx, jobId: string, workerId: string): Promise<LeaseState> => lockOwnedRow(tx, "TrainingJob", jobId, workerId);

/** Appends an event to the job's feed, next in its order. */
export async function insertEvent(tx: Tx, jobId: string, type: EventType, data: Record<string, unknown>): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO "TrainingJobEvent" (id, "jobId", seq, type, data, "createdAt")
     SELECT $1::uuid, $2::uuid, coalesce(max(seq), 0) + 1, $3, $4::jsonb, now() FROM "TrainingJobEvent" WHERE "jobId" = $2::uuid`,
    uuid7(), jobId, type, JSON.stringify(data),
  );
}

/** Events of a running job (and its progress), written only while this worker owns it; tells
 *  whether it still does and whether a cancel is pending (checked at every write, not only at
 *  heartbeats). */
export async function appendOwnedEvents(
  jobId: string, workerId: string, events: readonly { type: EventType; data: Record<string, unknown> }[], progress: Prisma.TrainingJobUpdateInput = {},
): Promise<LeaseState> {
  return getDb().$transaction(async (tx) => {
    const state = await lockOwnedJobState(tx, jobId, workerId);
    if (!state.owned) return state;
    for (const event of events) await insertEvent(tx, jobId, event.type, event.data);
    if (Object.keys(progress).length) await tx.trainingJob.update({ where: { id: jobId }, data: progress });
    return state;
  });
}

/** Ends a running job that failed or was cancelled: status, reason, and its one terminal event. */
export async function endOwnedJob(jobId: string, workerId: string, status: "failed" | "cancelled", message: string): Promise<boolean> {
  return getDb().$transaction(async (tx) => {
    if (!(await lockOwnedJob(tx, jobId, workerId))) return false;
    await insertEvent(tx, jobId, "training_failed", { error_message: message });
    await tx.trainingJob.update({
      where: { id: jobId },
      data: { status, error: message, finishedAt: new Date(), leaseOwner: null, leaseExpiresAt: null },
    });
    return true;
  });
}

/** Hands a running job back to the queue when its worker shuts down cleanly: the claim does not
 *  count as an attempt, and the next worker starts it again. False when the worker no longer held it. */
export async function releaseJob(jobId: string, workerId: string): Promise<boolean> {
  const released = await getDb().$executeRawUnsafe(
    `UPDATE "TrainingJob" SET status = 'queued', "leaseOwner" = NULL, "leaseExpiresAt" = NULL, attempts = greatest(attempts - 1, 0)
      WHERE id = $1::uuid AND "leaseOwner" = $2 AND status = 'running'`,
    jobId, workerId,
  );
  return released === 1;
}
