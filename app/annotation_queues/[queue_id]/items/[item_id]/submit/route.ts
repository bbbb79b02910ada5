// POST /annotation_queues/{queue_id}/items/{item_id}/submit — annotate an item
import { handle } from "@/lib/http/handle";
import { submitItemOp } from "@/lib/queues/operations";
import { submitItem } from "@/lib/queues/submit-item";

export const POST = handle(submitItemOp, ({ principal, params, body }) => submitItem(principal, params.queue_id, params.item_id, body));
