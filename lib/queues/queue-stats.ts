import type { Principal } from "@/lib/auth/principal";
import { getDatabase, getDb } from "@/lib/db/client";
import { ANNOTATION_PREFIX } from "@/lib/feedback/kinds";
import { resolveQueue, type QueueAccess } from "./queue-access";
import { itemCallRef } from "./item-feedback";
import { countItems } from "./item-status";
import type { QueueStats } from "./queue-schemas";

// GET /annotation_queues/{queue_id}/stats: the items by status, each person's work, and agreement.
// Agreement is exact: of the items (in the queue, not removed) that two or more people annotated
// with a spec, the share whose values are all equal (numbers compare as numbers, 4 = 4.0). It is
// given for numeric, boolean, categorical and preferred-choice specs (the same pair, {preferred,
// over}, is agreement); text and corrected replies are counted only.

const TEXT_TYPES = new Set(["text", "corrected_reply"]);

async function annotatorStats(queueId: string): Promise<QueueStats["annotators"]> {
  const rows = await getDatabase().sql.query<{ userId: string; username: string; assigned: boolean; completed: number; skipped: number; inProgress: number }>(
    `WITH people AS (
       SELECT "userId" AS id, true AS assigned FROM "AnnotationQueueAnnotator" WHERE "queueId" = $1::uuid
       UNION ALL
       SELECT DISTINCT "annotatorId", false FROM "AnnotationProgress" WHERE "queueId" = $1::uuid),
     live AS (SELECT id, "claimedById", "claimExpiresAt" FROM "AnnotationQueueItem" WHERE "queueId" = $1::uuid AND "deletedAt" IS NULL),
     work AS (
       SELECT g."annotatorId" AS id, count(*) FILTER (WHERE g.state = 'completed')::int AS completed, count(*) FILTER (WHERE g.state = 'skipped')::int AS skipped
         FROM "AnnotationProgress" g JOIN live ON live.id = g."itemId" GROUP BY 1),
     claims AS (SELECT "claimedById" AS id, count(*)::int AS n FROM live WHERE "claimExpiresAt" > now() GROUP BY 1)
     SELECT p.id AS "userId", coalesce(u.username, p.id::text) AS username, bool_or(p.assigned) AS assigned,
            coalesce(max(w.completed), 0) AS completed, coalesce(max(w.skipped), 0) AS skipped, coalesce(max(c.n), 0) AS "inProgress"
       FROM people p LEFT JOIN "User" u ON u.id = p.id LEFT JOIN work w ON w.id = p.id LEFT JOIN claims c ON c.id = p.id
      GROUP BY p.id, u.username
      ORDER BY 2`,
    [queueId],
  );
  return rows.map((r) => ({ user_id: r.userId, username: r.username, assigned: r.assigned, completed: r.completed, skipped: r.skipped, in_progress: r.inProgress }));
}

async function agreement(access: QueueAccess): Promise<QueueStats["agreement"]> {
  const specs = await getDb().annotationQueueSpec.findMany({
    where: { queueId: access.queue.id },
    orderBy: { position: "asc" },
    select: { spec: { select: { name: true, type: true } } },
  });
  const rows = await getDatabase().sql.query<{ feedbackType: string; items: number; agreeing: number }>(
    `SELECT x."feedbackType", count(*)::int AS items, (count(*) FILTER (WHERE x.distinct_values = 1))::int AS agreeing
       FROM (SELECT f."feedbackType", f."svcRef", count(DISTINCT f.payload->'value') AS distinct_values
               FROM "Feedback" f
               JOIN "AnnotationQueueItem" i ON i."queueId" = $2::uuid AND i."deletedAt" IS NULL AND f."svcRef" = $3 || i."callId"::text
              WHERE f."projectId" = $1::uuid AND f."queueId" = $2::uuid AND f."feedbackType" = ANY($4::text[])
              GROUP BY 1, 2
             HAVING count(DISTINCT f."wbUserId") >= 2) x
      GROUP BY 1`,
    [access.queue.projectId, access.queue.id, itemCallRef(access, ""), specs.map(({ spec }) => ANNOTATION_PREFIX + spec.name)],
  );
  return specs.map(({ spec }) => {
    const row = rows.find((r) => r.feedbackType === ANNOTATION_PREFIX + spec.name);
    const items = row?.items ?? 0;
    const agreeing = TEXT_TYPES.has(spec.type) ? null : (row?.agreeing ?? 0);
    return { spec: spec.name, type: spec.type, items, agreeing, rate: agreeing === null || items === 0 ? null : agreeing / items };
  });
}

export async function queueStats(principal: Principal, queueId: string): Promise<QueueStats> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const [counts, annotators, agreed] = await Promise.all([countItems([queueId]), annotatorStats(queueId), agreement(access)]);
  return { queue_id: queueId, annotations_per_item: access.queue.annotationsPerItem, counts: counts.get(queueId)!, annotators, agreement: agreed };
}
