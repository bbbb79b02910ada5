import type { Principal } from "@/lib/auth/principal";
import { badRequest } from "@/lib/contract/errors";
import { getDatabase } from "@/lib/db/client";
import { resolveQueue } from "./queue-access";
import type { ItemDto, ReviewBody } from "./item-schemas";
import { liveItemCallId, readItem } from "./item-rows";

// POST /annotation_queues/{queue_id}/items/{item_id}/review: a reviewer (member or admin; never an
// annotator) accepts or rejects an item's annotations, with a note. Only an item with the
// annotations the queue needs can be reviewed; a later decision replaces an earlier one. A rejected
// item returns to the annotators who completed it (item-claims.ts offers it to them first), and any
// resubmission makes it pending again (submit-item.ts). One conditional update: no lock is needed.

export async function reviewItem(principal: Principal, queueId: string, itemId: string, body: ReviewBody): Promise<{ item: ItemDto }> {
  const access = await resolveQueue(principal, queueId, "use");
  const [reviewed] = await getDatabase().sql.query<{ id: string }>(
    `UPDATE "AnnotationQueueItem"
        SET "reviewState" = $4, "reviewNote" = $5, "reviewedById" = $6::uuid, "reviewedAt" = now()
      WHERE id = $1::uuid AND "queueId" = $2::uuid AND "deletedAt" IS NULL AND "completedCount" >= $3::int
      RETURNING id`,
    [itemId, queueId, access.queue.annotationsPerItem, body.review_state, body.note ?? null, principal.user.id],
  );
  if (!reviewed) {
    await liveItemCallId(access, itemId); // 404 when there is no such item
    throw badRequest(`This item does not have the ${access.queue.annotationsPerItem} completed annotation(s) the queue needs yet: there is nothing to review.`);
  }
  return { item: await readItem(access, principal.user.id, itemId) };
}
