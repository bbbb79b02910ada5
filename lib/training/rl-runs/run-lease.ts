// RL runs are claimed and held like training jobs (lib/training/jobs/queue.ts): FOR UPDATE SKIP
// LOCKED picks the oldest run that is queued or whose holder's lease expired (its process died),
// the holder renews the lease, and every write is conditional on still holding it. A run is not a
// TrainingJob row: its own RL jobs queue behind it in the model's order, and it would hold a
// training slot while it waits for them.
import type { Prisma } from "@/lib/db/generated/client";
import { getDb } from "@/lib/db/client";
import { lockOwnedRow, renewLease, type LeaseState } from "@/lib/training/leased-rows";

type Tx = Prisma.TransactionClient;

/** Claims the oldest queued run, or a running one whose holder died with claims to spare. */
export async function claimRun(workerId: string, leaseMs: number, maxAttempts: number): Promise<string | null> {
  const rows = await getDb().$queryRawUnsafe<{ id: string }[]>(
    `UPDATE "RlRun" r
        SET status = 'running', "leaseOwner" = $1, "leaseExpiresAt" = now() + make_interval(secs => $2::float8 / 1000),
            attempts = r.attempts + 1, "startedAt" = coalesce(r."startedAt", now())
      WHERE r.id = (
        SELECT c.id FROM "RlRun" c
         WHERE c.status = 'queued' OR (c.status = 'running' AND c."leaseExpiresAt" < now() AND c.attempts < $3)
         ORDER BY c.seq
         FOR UPDATE SKIP LOCKED
         LIMIT 1)
      RETURNING r.id`,
    workerId, leaseMs, maxAttempts,
  );
  return rows[0]?.id ?? null;
}

/** Runs whose process died on their last allowed claim (a run that crashes its process every time
 *  would otherwise be claimed forever): failed, with the reason. */
export async function failAbandonedRuns(maxAttempts: number): Promise<number> {
  return getDb().$executeRawUnsafe(
    `UPDATE "RlRun" SET status = 'failed', error = $2, "finishedAt" = now(), "leaseOwner" = NULL, "leaseExpiresAt" = NULL
      WHERE status = 'running' AND "leaseExpiresAt" < now() AND attempts >= $1`,
    maxAttempts,
    `The process driving this run stopped responding during each of ${maxAttempts} attempts (crashed or killed); the run was given up. Its checkpoints so far remain.`,
  );
}

/** Extends this worker's lease on a running run. */
export const renewRunLease = (runId: string, workerId: string, leaseMs: number): Promise<LeaseState> => renewLease("RlRun", runId, workerId, leaseMs);

/** Runs `write` on the locked run row if this worker still holds it; null (nothing written) if not. */
export async function writeOwnedRun<T>(runId: string, workerId: string, write: (tx: Tx, state: LeaseState) => Promise<T>): Promise<T | null> {
  return getDb().$transaction(async (tx) => {
    const state = await lockOwnedRow(tx, "RlRun", runId, workerId);
    return state.owned ? write(tx, state) : null;
  });
}

/** Ends a held run: its status and reason; the lease is dropped. */
export async function endOwnedRun(runId: string, workerId: string, status: "succeeded" | "failed" | "cancelled", error: string | null): Promise<void> {
  await writeOwnedRun(runId, workerId, (tx) =>
    tx.rlRun.update({ where: { id: runId }, data: { status, error, finishedAt: new Date(), leaseOwner: null, leaseExpiresAt: null } }),
  );
}

/** Hands a run back when its process shuts down cleanly: the next process continues it where it
 *  is, and the claim does not count as an attempt. */
export async function releaseRun(runId: string, workerId: string): Promise<void> {
  await getDb().$executeRawUnsafe(
    `UPDATE "RlRun" SET status = 'queued', "leaseOwner" = NULL, "leaseExpiresAt" = NULL, attempts = greatest(attempts - 1, 0)
      WHERE id = $1::uuid AND "leaseOwner" = $2 AND status = 'running'`,
    runId, workerId,
  );
}
