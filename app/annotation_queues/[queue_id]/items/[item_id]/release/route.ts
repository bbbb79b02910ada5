// POST /annotation_queues/{queue_id}/items/{item_id}/release — give up one's claim on an item
import { handle } from "@/lib/http/handle";
import { releaseItem } from "@/lib/queues/item-claims";
import { releaseItemOp } from "@/lib/queues/operations";

export const POST = handle(releaseItemOp, ({ principal, params }) => releaseItem(principal, params.queue_id, params.item_id));
