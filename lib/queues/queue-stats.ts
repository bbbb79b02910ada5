import type { Principal } from "@/lib/auth/principal";
import { getDatabase, getDb } from "@/lib/db/client";
import { ANNOTATION_PREFIX } from "@/lib/feedback/kinds";
import { resolveQueue, type QueueAccess } from "./queue-access";
import { itemCallRef } from "./item-feedback";
import { countItems } from "./item-status";
import { krippendorffAlpha, type AlphaMetric } from "./krippendorff-alpha";
import type { QueueStats } from "./queue-schemas";

// GET /annotation_queues/{queue_id}/stats: the items by status, each person's work, and agreement
// per spec, over each annotator's newest value per item. Exact agreement: of the items (in the
// queue, not removed) that two or more people annotated with a spec, the share whose values are all
// equal (numbers compare as numbers, 4 = 4.0; the same {preferred, over} pair agrees). Beside it
// Krippendorff's α, corrected for chance: interval for numbers, nominal for booleans, categories
// and preferred choices. Text and corrected replies are counted only.

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

/** How α measures a spec's values; null: not measured (free text). */
const ALPHA_METRIC: Record<string, AlphaMetric | undefined> = { numeric: "interval", boolean: "nominal", categorical: "nominal", preferred_choice: "nominal" };

/** A value as a nominal label: JSON with object keys sorted, so {preferred, over} pairs compare by content. */
const label = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));

async function agreement(access: QueueAccess): Promise<QueueStats["agreement"]> {
  const specs = await getDb().annotationQueueSpec.findMany({
    where: { queueId: access.queue.id },
    orderBy: { position: "asc" },
    select: { spec: { select: { name: true, type: true } } },
  });
  // Each annotator's newest value per item and spec (an edit replaces, it does not vote twice).
  const rows = await getDatabase().sql.query<{ feedbackType: string; svcRef: string; value: unknown }>(
    `SELECT DISTINCT ON (f."feedbackType", f."svcRef", f."wbUserId") f."feedbackType", f."svcRef", f.payload->'value' AS value
       FROM "Feedback" f
       JOIN "AnnotationQueueItem" i ON i."queueId" = $2::uuid AND i."deletedAt" IS NULL AND f."svcRef" = $3 || i."callId"::text
      WHERE f."projectId" = $1::uuid AND f."queueId" = $2::uuid AND f."feedbackType" = ANY($4::text[])
      ORDER BY f."feedbackType", f."svcRef", f."wbUserId", f."createdAt" DESC, f.id DESC`,
    [access.queue.projectId, access.queue.id, itemCallRef(access, ""), specs.map(({ spec }) => ANNOTATION_PREFIX + spec.name)],
  );
  const values = new Map<string, Map<string, unknown[]>>(); // spec type → item → values
  for (const row of rows) {
    const byItem = values.get(row.feedbackType) ?? values.set(row.feedbackType, new Map()).get(row.feedbackType)!;
    byItem.set(row.svcRef, [...(byItem.get(row.svcRef) ?? []), row.value]);
  }
  return specs.map(({ spec }) => {
    const items = [...(values.get(ANNOTATION_PREFIX + spec.name)?.values() ?? [])];
    const multiple = items.filter((v) => v.length >= 2);
    const metric = ALPHA_METRIC[spec.type];
    if (!metric) return { spec: spec.name, type: spec.type, items: multiple.length, agreeing: null, rate: null, alpha: null, alpha_metric: null };
    const agreeing = multiple.filter((v) => new Set(v.map(label)).size === 1).length;
    const units = items.map((v) => (metric === "interval" ? v.map(Number) : v.map(label)));
    return {
      spec: spec.name, type: spec.type, items: multiple.length, agreeing, rate: multiple.length === 0 ? null : agreeing / multiple.length,
      alpha: krippendorffAlpha(metric, units), alpha_metric: metric,
    };
  });
}

export async function queueStats(principal: Principal, queueId: string): Promise<QueueStats> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const [counts, annotators, agreed] = await Promise.all([countItems([queueId]), annotatorStats(queueId), agreement(access)]);
  return { queue_id: queueId, annotations_per_item: access.queue.annotationsPerItem, counts: counts.get(queueId)!, annotators, agreement: agreed };
}
