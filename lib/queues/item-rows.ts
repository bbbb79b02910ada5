import { SqlParams } from "@/lib/calls/sql-params";
import { notFound } from "@/lib/contract/errors";
import { getDatabase } from "@/lib/db/client";
import type { QueueAccess } from "./queue-access";
import type { AnnotationState, ItemDto, ItemStatus, ReviewState } from "./item-schemas";
import { itemStatusSql } from "./item-status";

// Items as the API returns them, read in one SQL statement: the item row `i`, its call's facts, the
// newest progress row across annotators (spec §4.6's annotation_state), the caller's own progress,
// and the status in the queue. Callers add the WHERE, ORDER BY and the position expression.

export interface ItemRow {
  id: string;
  callId: string;
  addedById: string;
  completedCount: number;
  claimedById: string | null;
  claimExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
  callStartedAt: Date;
  callEndedAt: Date | null;
  callOpName: string;
  callTraceId: string;
  latestState: AnnotationState | null;
  latestAnnotatorId: string | null;
  myState: AnnotationState | null;
  status: ItemStatus;
  position: number | null;
  reviewState: ReviewState;
  reviewNote: string | null;
  reviewedById: string | null;
  reviewedAt: Date | null;
}

/** `SELECT … FROM` the items `i` of a queue as seen by `annotatorId`, with `position` as given and
 *  any `extra` columns (over the item `i` and its call `c`). */
export function itemSelect(access: QueueAccess, annotatorId: string, params: SqlParams, position = "NULL::int", extra = ""): string {
  return `SELECT i.id, i."callId", i."addedById", i."completedCount",
         CASE WHEN i."claimExpiresAt" > now() THEN i."claimedById" END AS "claimedById",
         CASE WHEN i."claimExpiresAt" > now() THEN i."claimExpiresAt" END AS "claimExpiresAt",
         i."createdAt", i."updatedAt", i."deletedAt", i."reviewState", i."reviewNote", i."reviewedById", i."reviewedAt",
         c."startedAt" AS "callStartedAt", c."endedAt" AS "callEndedAt", c."opName" AS "callOpName", c."traceId" AS "callTraceId",
         latest.state AS "latestState", latest."annotatorId" AS "latestAnnotatorId", mine.state AS "myState",
         ${itemStatusSql(`${params.add(access.queue.annotationsPerItem)}::int`)} AS status, ${position} AS position${extra}
    FROM "AnnotationQueueItem" i
    JOIN "Call" c ON c.id = i."callId"
    LEFT JOIN LATERAL (SELECT p.state, p."annotatorId" FROM "AnnotationProgress" p WHERE p."itemId" = i.id
                        ORDER BY p."updatedAt" DESC, p.id DESC LIMIT 1) latest ON true
    LEFT JOIN "AnnotationProgress" mine ON mine."itemId" = i.id AND mine."annotatorId" = ${params.add(annotatorId)}::uuid`;
}

export function toItemDto(access: QueueAccess, row: ItemRow): ItemDto {
  return {
    id: row.id,
    project_id: access.project,
    queue_id: access.queue.id,
    call_id: row.callId,
    call_started_at: row.callStartedAt.toISOString(),
    call_ended_at: row.callEndedAt?.toISOString() ?? null,
    call_op_name: row.callOpName,
    call_trace_id: row.callTraceId,
    display_fields: access.queue.displayFields,
    created_at: row.createdAt.toISOString(),
    created_by: row.addedById,
    updated_at: row.updatedAt.toISOString(),
    added_by: row.addedById,
    deleted_at: row.deletedAt?.toISOString() ?? null,
    position_in_queue: row.position,
    annotation_state: row.latestState ?? "unstarted",
    annotator_user_id: row.latestAnnotatorId,
    status: row.status,
    completed_annotations: row.completedCount,
    my_state: row.myState,
    claimed_by: row.claimedById,
    claim_expires_at: row.claimExpiresAt?.toISOString() ?? null,
    review: { state: row.reviewState, note: row.reviewNote, reviewed_by: row.reviewedById, reviewed_at: row.reviewedAt?.toISOString() ?? null },
  };
}

export async function queryItems(access: QueueAccess, sql: string, params: SqlParams): Promise<ItemDto[]> {
  const rows = await getDatabase().sql.query<ItemRow>(sql, params.values);
  return rows.map((row) => toItemDto(access, row));
}

export const itemNotFound = (access: QueueAccess, itemId: string) => notFound(`Item '${itemId}' not found in annotation queue '${access.queue.id}'.`);

/** The call of a live item of the queue (404 when there is no such item). */
export async function liveItemCallId(access: QueueAccess, itemId: string): Promise<string> {
  const [item] = await getDatabase().sql.query<{ callId: string }>(
    `SELECT "callId" FROM "AnnotationQueueItem" WHERE id = $1::uuid AND "queueId" = $2::uuid AND "deletedAt" IS NULL`,
    [itemId, access.queue.id],
  );
  if (!item) throw itemNotFound(access, itemId);
  return item.callId;
}

/** One live item of the queue, with its position in order of addition (or none, for progress answers). */
export async function readItem(access: QueueAccess, annotatorId: string, itemId: string, { withPosition = true } = {}): Promise<ItemDto> {
  const params = new SqlParams();
  const position = withPosition
    ? `(SELECT count(*)::int FROM "AnnotationQueueItem" o WHERE o."queueId" = i."queueId" AND o."deletedAt" IS NULL AND o.seq <= i.seq)`
    : undefined;
  const select = itemSelect(access, annotatorId, params, position);
  const [item] = await queryItems(
    access,
    `${select} WHERE i.id = ${params.add(itemId)}::uuid AND i."queueId" = ${params.add(access.queue.id)}::uuid AND i."deletedAt" IS NULL`,
    params,
  );
  if (!item) throw itemNotFound(access, itemId);
  return item;
}
