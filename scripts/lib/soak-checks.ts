import type pg from "pg";
import type { Acknowledged } from "./soak-load";

// bench:soak's findings in the database once the load has stopped: what was acknowledged and is
// missing, and the jobs and runs left neither finished nor legitimately running.

export interface Findings {
  missingCalls: string[];
  missingFeedback: string[];
  /** Acknowledged queue submissions without the annotator's feedback on the item's call. */
  missingSubmissions: number;
  /** Jobs and runs whose submission was answered 200 but are not there. */
  missingWork: string[];
  /** Jobs and runs not finished: running on a live lease, queued behind one, or neither (stuck). */
  unfinished: { kind: "job" | "run"; id: string; status: string; legitimate: boolean }[];
  /** Finished jobs and runs that failed, with why (a failure after a kill is an outcome, reported). */
  failed: { kind: "job" | "run"; id: string; error: string }[];
}

const missing = async (sql: pg.Pool, table: string, ids: string[]) =>
  (await sql.query(`SELECT id FROM unnest($1::uuid[]) AS id WHERE NOT EXISTS (SELECT 1 FROM "${table}" t WHERE t.id = id)`, [ids])).rows.map((r) => r.id as string);

export async function findings(sql: pg.Pool, acks: Acknowledged): Promise<Findings> {
  const { rows: [{ n: missingSubmissions }] } = await sql.query(
    `SELECT count(*)::int AS n FROM unnest($1::uuid[], $2::uuid[]) AS a(user_id, item_id)
      WHERE NOT EXISTS (SELECT 1 FROM "AnnotationQueueItem" i JOIN "Feedback" f ON f."queueId" = i."queueId" AND f."svcRef" LIKE '%/call/' || i."callId"
                         WHERE i.id = a.item_id AND f."wbUserId" = a.user_id)`,
    [acks.submissions.map((s) => s.userId), acks.submissions.map((s) => s.itemId)],
  );
  const work = [
    ...(await sql.query(`SELECT 'job' AS kind, id, status, error, "leaseExpiresAt" > now() AS leased FROM "TrainingJob" WHERE id = ANY($1::uuid[])`, [acks.jobs])).rows,
    ...(await sql.query(`SELECT 'run' AS kind, id, status, error, "leaseExpiresAt" > now() AS leased FROM "RlRun" WHERE id = ANY($1::uuid[])`, [acks.runs])).rows,
  ] as { kind: "job" | "run"; id: string; status: string; error: string | null; leased: boolean | null }[];
  const running = work.filter((w) => w.status === "running" && w.leased);
  const unfinished = work
    .filter((w) => !["succeeded", "failed", "cancelled"].includes(w.status))
    .map((w) => ({ kind: w.kind, id: w.id, status: w.status, legitimate: (w.status === "running" && !!w.leased) || (w.status === "queued" && running.length > 0) }));
  return {
    missingCalls: await missing(sql, "Call", acks.calls),
    missingFeedback: await missing(sql, "Feedback", acks.feedback),
    missingSubmissions,
    missingWork: [...acks.jobs, ...acks.runs].filter((id) => !work.some((w) => w.id === id)),
    unfinished,
    failed: work.filter((w) => w.status === "failed").map((w) => ({ kind: w.kind, id: w.id, error: w.error ?? "" })),
  };
}
