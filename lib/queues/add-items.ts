import type { Principal } from "@/lib/auth/principal";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { CALLS_FROM, callFilterConditions, type CallFilters } from "@/lib/calls/list-calls";
import { SqlParams } from "@/lib/calls/sql-params";
import { invalid } from "@/lib/contract/errors";
import { getDatabase } from "@/lib/db/client";
import { uuid7 } from "@/lib/db/uuid7";
import { resolveQueue, type QueueAccess } from "./queue-access";
import type { AddItemsBody } from "./item-schemas";

// POST /annotation_queues/{queue_id}/items: members and admins add calls of the queue's project,
// by id (in the order given) or by a call-log filter (oldest first). A call already in the queue is
// skipped and counted; one removed earlier comes back (with its progress, which its feedback
// matches) at the end of the queue.

/** The calls of the queue's project matching the filter, oldest first, at most `limit`. */
async function matchingCalls(access: QueueAccess, filter: CallFilters, limit: number): Promise<string[]> {
  const params = new SqlParams();
  const conditions = [`c."projectId" = ${params.add(access.queue.projectId)}::uuid`, ...callFilterConditions(filter, params)];
  const rows = await getDatabase().sql.query<{ id: string }>(
    `SELECT c.id FROM ${CALLS_FROM} WHERE ${conditions.join(" AND ")} ORDER BY c."startedAt", c.id LIMIT ${params.add(limit)}`,
    params.values,
  );
  return rows.map((row) => row.id);
}

/** Refuses ids that name no call of the queue's project (another project's call included). */
async function assertCallsOfProject(access: QueueAccess, callIds: string[]): Promise<void> {
  const found = await getDatabase().sql.query<{ id: string }>(`SELECT id FROM "Call" WHERE id = ANY($1::uuid[]) AND "projectId" = $2::uuid`, [callIds, access.queue.projectId]);
  const known = new Set(found.map((row) => row.id));
  const missing = callIds.findIndex((id) => !known.has(id));
  if (missing >= 0) throw invalid(["body", "call_ids", String(missing)], `no call '${callIds[missing]}' in project '${access.project}'`);
}

export async function addItems(principal: Principal, queueId: string, body: AddItemsBody): Promise<{ added: number; duplicates: number }> {
  const access = await resolveQueue(principal, queueId, "use");
  await flushCalls(); // a call just made may still be in this process's write-behind buffer
  const requested = body.call_ids ?? (await matchingCalls(access, body.filter!, body.limit));
  if (body.call_ids) await assertCallsOfProject(access, requested);
  const unique = [...new Set(requested)];
  const inserted = await getDatabase().sql.query<{ id: string }>(
    `INSERT INTO "AnnotationQueueItem" (id, "queueId", "callId", "addedById", "createdAt", "updatedAt")
     SELECT w.id, $1::uuid, w."callId", $2::uuid, now(), now()
       FROM unnest($3::uuid[], $4::uuid[]) WITH ORDINALITY AS w("callId", id, n)
      ORDER BY w.n
     ON CONFLICT ("queueId", "callId") DO UPDATE
        SET "deletedAt" = NULL, seq = DEFAULT, "addedById" = EXCLUDED."addedById", "claimedById" = NULL, "claimExpiresAt" = NULL, "updatedAt" = now()
      WHERE "AnnotationQueueItem"."deletedAt" IS NOT NULL
     RETURNING id`,
    [queueId, principal.user.id, unique, unique.map(() => uuid7())],
  );
  return { added: inserted.length, duplicates: requested.length - inserted.length };
}
