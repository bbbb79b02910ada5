import type { Principal } from "@/lib/auth/principal";
import { getDatabase } from "@/lib/db/client";
import { resolveQueue } from "./queue-access";
import { itemCallRef, noteBody, validateItemFeedback, writeItemFeedback } from "./item-feedback";
import type { ItemDto } from "./item-schemas";
import { liveItemCallId, readItem } from "./item-rows";
import { lockItem, writeProgress } from "./progress-write";
import { checkTransition } from "./transitions";

// POST /annotation_queues/{queue_id}/items/{item_id}/skip: the caller skips an item — final for
// them (the transition table), and the item goes to the others. An optional reason is stored as a
// `wandb.note.1` row on the call, in the same transaction. Skipping again changes nothing (the
// reason of a repeat is not stored); skipping a completed item is a 400.

export async function skipItem(principal: Principal, queueId: string, itemId: string, body: { reason?: string }): Promise<{ item: ItemDto }> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const annotator = principal.user.id;
  const ref = itemCallRef(access, await liveItemCallId(access, itemId));
  const rows = body.reason ? await validateItemFeedback(principal, access, ref, [noteBody(body.reason)]) : [];
  await getDatabase().sql.transaction(async (tx) => {
    const item = await lockItem(tx, access, itemId, annotator);
    if (checkTransition(item.state, "skipped") === "no-op") return;
    await writeItemFeedback(tx, access, ref, annotator, rows, { replace: false });
    await writeProgress(tx, item, annotator, "skipped");
  });
  return { item: await readItem(access, annotator, itemId) };
}
