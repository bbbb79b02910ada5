import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { resolveQueue } from "./queue-access";
import { itemNotFound } from "./item-rows";

// DELETE /annotation_queues/{queue_id}/items/{item_id}: members and admins remove an item. It is
// marked deleted, so its progress stays beside the feedback given on it (adding the call again
// brings both back); a second removal is a 404, as a second delete is everywhere.

export async function removeItem(principal: Principal, queueId: string, itemId: string): Promise<{ id: string; object: "annotation_queue_item"; deleted: true }> {
  const access = await resolveQueue(principal, queueId, "use");
  const { count } = await getDb().annotationQueueItem.updateMany({
    where: { id: itemId, queueId, deletedAt: null },
    data: { deletedAt: new Date(), claimedById: null, claimExpiresAt: null },
  });
  if (count === 0) throw itemNotFound(access, itemId);
  return { id: itemId, object: "annotation_queue_item", deleted: true };
}
