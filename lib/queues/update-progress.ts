import type { Principal } from "@/lib/auth/principal";
import { getDatabase } from "@/lib/db/client";
import { queueNotFound } from "@/lib/feedback/queue-ref";
import { resolveQueue } from "./queue-access";
import type { AnnotationState, ItemDto } from "./item-schemas";
import { readItem } from "./item-rows";
import { lockItem, writeProgress } from "./progress-write";
import { checkTransition } from "./transitions";

// POST /annotation_queues/{queue_id}/items/{item_id}/progress (spec §4.6): the caller's own state on
// an item, by the transition table (transitions.ts). The queue must be one the caller reaches, in
// `project_id`; an unknown queue or item is a 404 (W&B Weave answers 400). The answer is the item
// with `annotation_state` as it now stands across annotators.

export async function updateProgress(
  principal: Principal,
  queueId: string,
  itemId: string,
  body: { project_id: string; annotation_state: AnnotationState },
): Promise<{ item: ItemDto }> {
  const access = await resolveQueue(principal, queueId, "annotate");
  if (access.project !== body.project_id) throw queueNotFound(queueId);
  const annotator = principal.user.id;
  await getDatabase().sql.transaction(async (tx) => {
    const item = await lockItem(tx, access, itemId, annotator);
    if (checkTransition(item.state, body.annotation_state) === "write") await writeProgress(tx, item, annotator, body.annotation_state);
  });
  return { item: await readItem(access, annotator, itemId, { withPosition: false }) };
}
