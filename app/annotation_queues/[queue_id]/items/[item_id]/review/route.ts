// POST /annotation_queues/{queue_id}/items/{item_id}/review — accept or reject an item's annotations
import { handle } from "@/lib/http/handle";
import { reviewItemOp } from "@/lib/queues/operations";
import { reviewItem } from "@/lib/queues/review-item";

export const POST = handle(reviewItemOp, ({ principal, params, body }) => reviewItem(principal, params.queue_id, params.item_id, body));
