import { getEnv } from "@/lib/config/env";
import type { SqlSession } from "@/lib/db/sql";
import { uuid7 } from "@/lib/db/uuid7";
import type { QueueAccess } from "./queue-access";
import type { AnnotationState, ReviewState } from "./item-schemas";
import { itemNotFound } from "./item-rows";

// Progress writes, inside a transaction (getDatabase().sql.transaction) that first locks the item's row: progress on one item is
// written one request at a time, so the item's completed count and claim always say what its
// progress rows say (the claim query relies on them: item-claims.ts).

export interface LockedItem {
  id: string;
  callId: string;
  claimedById: string | null;
  /** Whether claimedById holds a claim that has not expired. */
  claimLive: boolean;
  reviewState: ReviewState;
  /** The annotator's state on the item; null when they have no progress on it. */
  state: AnnotationState | null;
}

/**
 * Locks the item's row (a 404 when the queue has no such live item), then reads the annotator's
 * state on it. Two statements, on purpose: a statement that waited for the lock still reads other
 * tables as they were when it began, so one of the same annotator's requests sent twice at once
 * would see the state from before the other committed (and count a completion twice); the read
 * after the lock begins after that commit.
 */
export async function lockItem(tx: SqlSession, access: QueueAccess, itemId: string, annotatorId: string): Promise<LockedItem> {
  const [item] = await tx.query<Omit<LockedItem, "state">>(
    `SELECT id, "callId", "claimedById", coalesce("claimExpiresAt" > now(), false) AS "claimLive", "reviewState"
       FROM "AnnotationQueueItem" WHERE id = $1::uuid AND "queueId" = $2::uuid AND "deletedAt" IS NULL FOR UPDATE`,
    [itemId, access.queue.id],
  );
  if (!item) throw itemNotFound(access, itemId);
  const [progress] = await tx.query<{ state: AnnotationState }>(`SELECT state FROM "AnnotationProgress" WHERE "itemId" = $1::uuid AND "annotatorId" = $2::uuid`, [itemId, annotatorId]);
  return { ...item, state: progress?.state ?? null };
}

/** How long a claim lasts from now, in seconds (a SQL interval's input). */
export const claimSeconds = () => getEnv().ANNEAL_ANNOTATION_CLAIM_MS / 1000;

/**
 * Moves the annotator to `to` (a transition already checked) and keeps the item in step, in one
 * statement: a completion counts; completing or skipping ends one's own claim; `in_progress` claims
 * the item unless someone else holds a live claim on it.
 */
export async function writeProgress(tx: SqlSession, item: LockedItem, annotatorId: string, to: AnnotationState): Promise<void> {
  const claims = to === "in_progress" && (!item.claimLive || item.claimedById === annotatorId);
  await tx.query(
    `WITH progress AS (
       INSERT INTO "AnnotationProgress" (id, "queueId", "itemId", "annotatorId", state, "createdAt", "updatedAt")
       SELECT $6::uuid, "queueId", id, $3::uuid, $7, now(), now() FROM "AnnotationQueueItem" WHERE id = $1::uuid
       ON CONFLICT ("itemId", "annotatorId") DO UPDATE SET state = EXCLUDED.state, "updatedAt" = now())
     UPDATE "AnnotationQueueItem"
        SET "completedCount" = "completedCount" + $2::int,
            "claimedById" = CASE WHEN $4::boolean THEN $3::uuid WHEN "claimedById" = $3::uuid THEN NULL ELSE "claimedById" END,
            "claimExpiresAt" = CASE WHEN $4::boolean THEN now() + make_interval(secs => $5::float8) WHEN "claimedById" = $3::uuid THEN NULL ELSE "claimExpiresAt" END
      WHERE id = $1::uuid`,
    [item.id, to === "completed" ? 1 : 0, annotatorId, claims, claimSeconds(), uuid7(), to],
  );
}

/** Gives up the annotator's unfinished work on the item: their in_progress row goes, and their claim with it. */
export async function dropProgress(tx: SqlSession, item: LockedItem, annotatorId: string): Promise<void> {
  await tx.query(
    `WITH dropped AS (DELETE FROM "AnnotationProgress" WHERE "itemId" = $1::uuid AND "annotatorId" = $2::uuid)
     UPDATE "AnnotationQueueItem" SET "claimedById" = NULL, "claimExpiresAt" = NULL WHERE id = $1::uuid AND "claimedById" = $2::uuid`,
    [item.id, annotatorId],
  );
}

/** Ends the annotator's claim on an item they completed (a rejected item they took back), keeping their progress. */
export async function dropClaim(tx: SqlSession, item: LockedItem, annotatorId: string): Promise<void> {
  await tx.query(`UPDATE "AnnotationQueueItem" SET "claimedById" = NULL, "claimExpiresAt" = NULL WHERE id = $1::uuid AND "claimedById" = $2::uuid`, [item.id, annotatorId]);
}

/** A submission makes the item's review pending again: the reviewer's decision was about other annotations. */
export async function reopenReview(tx: SqlSession, item: LockedItem): Promise<void> {
  if (item.reviewState !== "pending") await tx.query(`UPDATE "AnnotationQueueItem" SET "reviewState" = 'pending' WHERE id = $1::uuid`, [item.id]);
}
