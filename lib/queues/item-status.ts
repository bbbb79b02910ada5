import { getDatabase } from "@/lib/db/client";
import type { ItemStatus } from "./item-schemas";
import type { ItemCounts } from "./queue-schemas";

// An item's status in the queue as a whole, computed in SQL from the item row `i` (its completed
// count and live claim) and its progress rows (docs/annotation-queues.md):
//   rejected     a reviewer sent it back to its annotators (until one of them resubmits);
//   completed    its completed annotations reach the queue's number;
//   in_progress  not completed, and claimed right now or partly annotated;
//   skipped      not completed, no live claim, skipped by every assigned annotator (with nobody
//                assigned: skipped by someone, and no annotation yet);
//   unstarted    the rest (an expired claim counts for nothing: the item is back in the pool).

/** The status of item `i` in a queue needing `needed` annotations per item (a SQL expression). */
export function itemStatusSql(needed: string): string {
  return `(CASE
    WHEN i."reviewState" = 'rejected' THEN 'rejected'
    WHEN i."completedCount" >= ${needed} THEN 'completed'
    WHEN i."completedCount" > 0 OR i."claimExpiresAt" > now() THEN 'in_progress'
    WHEN EXISTS (SELECT 1 FROM "AnnotationProgress" s WHERE s."itemId" = i.id AND s.state = 'skipped')
     AND NOT EXISTS (SELECT 1 FROM "AnnotationQueueAnnotator" a WHERE a."queueId" = i."queueId"
                      AND NOT EXISTS (SELECT 1 FROM "AnnotationProgress" s
                                       WHERE s."itemId" = i.id AND s."annotatorId" = a."userId" AND s.state = 'skipped'))
    THEN 'skipped'
    ELSE 'unstarted' END)`;
}

const EMPTY: ItemCounts = { total: 0, completed: 0, in_progress: 0, skipped: 0, unstarted: 0, rejected: 0, remaining: 0, accepted: 0, awaiting_review: 0 };

/** Each queue's live items by status, and its completed ones by review, in one query. */
export async function countItems(queueIds: string[]): Promise<Map<string, ItemCounts>> {
  const counts = new Map(queueIds.map((id) => [id, { ...EMPTY }]));
  if (queueIds.length === 0) return counts;
  const rows = await getDatabase().sql.query<{ queueId: string; status: ItemStatus; accepted: boolean; n: number }>(
    `SELECT i."queueId", ${itemStatusSql(`q."annotationsPerItem"`)} AS status, i."reviewState" = 'accepted' AS accepted, count(*)::int AS n
       FROM "AnnotationQueueItem" i JOIN "AnnotationQueue" q ON q.id = i."queueId"
      WHERE i."queueId" = ANY($1::uuid[]) AND i."deletedAt" IS NULL
      GROUP BY 1, 2, 3`,
    [queueIds],
  );
  for (const row of rows) {
    const c = counts.get(row.queueId)!;
    c[row.status] += row.n;
    c.total += row.n;
    if (row.status === "completed") c[row.accepted ? "accepted" : "awaiting_review"] += row.n;
  }
  for (const c of counts.values()) c.remaining = c.total - c.completed - c.skipped;
  return counts;
}
