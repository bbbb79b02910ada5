import type { Principal } from "@/lib/auth/principal";
import { badRequest } from "@/lib/contract/errors";
import { getDatabase } from "@/lib/db/client";
import { uuid7 } from "@/lib/db/uuid7";
import { resolveQueue } from "./queue-access";
import type { ItemDto } from "./item-schemas";
import { readItem } from "./item-rows";
import { claimSeconds, dropClaim, dropProgress, lockItem } from "./progress-write";

// Claims (docs/annotation-queues.md): "next" gives the caller an item to annotate and holds it for
// them for ANNEAL_ANNOTATION_CLAIM_MS — their `in_progress` progress row, with the claim's holder and
// expiry on the item row. An expired claim returns the item to the pool; the holder may release it.

/**
 * One statement, so two annotators never take the same item: the candidate is locked FOR UPDATE
 * SKIP LOCKED (a row another claim is taking is passed over), and a row another claim or
 * completion changed since this statement began is re-read and rechecked — which is why the
 * claim and the completed count are columns of the item row, the only row PostgreSQL rechecks.
 * The caller's own live claim comes first (resume), then items a reviewer rejected that the caller
 * annotated (they go back to the annotators who wrote them, and to nobody else), then the queue's
 * order. Claiming a rejected item keeps the caller's `completed` progress: the claim is on the item row.
 */
const CLAIM_SQL = `
  WITH claimed AS (
    UPDATE "AnnotationQueueItem" i
       SET "claimedById" = $2::uuid, "claimExpiresAt" = now() + make_interval(secs => $4::float8)
     WHERE i.id = (
       SELECT c.id FROM "AnnotationQueueItem" c
        WHERE c."queueId" = $1::uuid AND c."deletedAt" IS NULL
          AND (c."claimedById" IS NULL OR c."claimedById" = $2::uuid OR c."claimExpiresAt" <= now())
          AND (CASE WHEN c."reviewState" = 'rejected'
                    THEN EXISTS (SELECT 1 FROM "AnnotationProgress" p
                                  WHERE p."itemId" = c.id AND p."annotatorId" = $2::uuid AND p.state = 'completed')
                    ELSE c."completedCount" < $3::int
                         AND NOT EXISTS (SELECT 1 FROM "AnnotationProgress" p
                                          WHERE p."itemId" = c.id AND p."annotatorId" = $2::uuid AND p.state <> 'in_progress') END)
        ORDER BY (c."claimedById" = $2::uuid AND c."claimExpiresAt" > now()) IS TRUE DESC, c."reviewState" = 'rejected' DESC, c.seq
        FOR UPDATE SKIP LOCKED
        LIMIT 1)
    RETURNING i.id, i."queueId"),
  progress AS (
    INSERT INTO "AnnotationProgress" (id, "queueId", "itemId", "annotatorId", state, "createdAt", "updatedAt")
    SELECT $5::uuid, "queueId", id, $2::uuid, 'in_progress', now(), now() FROM claimed
    ON CONFLICT ("itemId", "annotatorId") DO NOTHING)
  SELECT id FROM claimed`;

/** POST /annotation_queues/{queue_id}/next: the item claimed for the caller, or null when none is left for them. */
export async function claimNextItem(principal: Principal, queueId: string): Promise<{ item: ItemDto | null }> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const annotator = principal.user.id;
  const [claimed] = await getDatabase().sql.query<{ id: string }>(CLAIM_SQL, [queueId, annotator, access.queue.annotationsPerItem, claimSeconds(), uuid7()]);
  return { item: claimed ? await readItem(access, annotator, claimed.id) : null };
}

/** POST /annotation_queues/{queue_id}/items/{item_id}/release: the caller gives up their unfinished item. */
export async function releaseItem(principal: Principal, queueId: string, itemId: string): Promise<{ item: ItemDto }> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const annotator = principal.user.id;
  await getDatabase().sql.transaction(async (tx) => {
    const item = await lockItem(tx, access, itemId, annotator);
    const holdsRejected = item.state === "completed" && item.claimLive && item.claimedById === annotator;
    if (holdsRejected) await dropClaim(tx, item, annotator);
    else if (item.state === "completed" || item.state === "skipped") throw badRequest(`You ${item.state} this item: there is no claim to release.`);
    else if (item.state === "in_progress") await dropProgress(tx, item, annotator);
  });
  return { item: await readItem(access, annotator, itemId) };
}
