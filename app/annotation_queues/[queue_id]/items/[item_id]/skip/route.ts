// POST /annotation_queues/{queue_id}/items/{item_id}/skip — skip an item, with an optional reason
import { handle } from "@/lib/http/handle";
import { skipItemOp } from "@/lib/queues/operations";
import { skipItem } from "@/lib/queues/skip-item";

export const POST = handle(skipItemOp, ({ principal, params, body }) => skipItem(principal, params.queue_id, params.item_id, body));
