// The lease both queued kinds of work share (training jobs and RL runs): a running row held by one
// worker (`leaseOwner`) until `leaseExpiresAt`, renewed by a heartbeat that also reads a cancel
// request, and written only while locked and still owned. The table names are fixed here, never
// taken from input.
import type { Prisma } from "@/lib/db/generated/client";
import { getDb } from "@/lib/db/client";

type Tx = Prisma.TransactionClient;

export type LeasedTable = "TrainingJob" | "RlRun";

export interface LeaseState {
  owned: boolean;
  cancelRequested: boolean;
}

const leaseState = (rows: { cancelRequested: boolean }[]): LeaseState => ({ owned: rows.length === 1, cancelRequested: rows[0]?.cancelRequested ?? false });

/** Extends this worker's lease on a running row; `owned: false` once another worker took it over. */
export async function renewLease(table: LeasedTable, id: string, workerId: string, leaseMs: number): Promise<LeaseState> {
  const rows = await getDb().$queryRawUnsafe<{ cancelRequested: boolean }[]>(
    `UPDATE "${table}" SET "leaseExpiresAt" = now() + make_interval(secs => $3::float8 / 1000)
      WHERE id = $1::uuid AND "leaseOwner" = $2 AND status = 'running'
      RETURNING "cancelRequested"`,
    id, workerId, leaseMs,
  );
  return leaseState(rows);
}

/** Holds this worker's lease on a running row for at least `ms` from now, never shortening it (a
 *  job bundle's lease lasts hours): for work on the row's behalf that no heartbeat renews. */
export async function holdLease(table: LeasedTable, id: string, workerId: string, ms: number): Promise<LeaseState> {
  const rows = await getDb().$queryRawUnsafe<{ cancelRequested: boolean }[]>(
    `UPDATE "${table}" SET "leaseExpiresAt" = greatest("leaseExpiresAt", now() + make_interval(secs => $3::float8 / 1000))
      WHERE id = $1::uuid AND "leaseOwner" = $2 AND status = 'running'
      RETURNING "cancelRequested"`,
    id, workerId, ms,
  );
  return leaseState(rows);
}

/** Locks the row in `tx` if this worker still holds it. */
export async function lockOwnedRow(tx: Tx, table: LeasedTable, id: string, workerId: string): Promise<LeaseState> {
  const rows = await tx.$queryRawUnsafe<{ cancelRequested: boolean }[]>(
    `SELECT "cancelRequested" FROM "${table}" WHERE id = $1::uuid AND "leaseOwner" = $2 AND status = 'running' FOR UPDATE`,
    id, workerId,
  );
  return leaseState(rows);
}
