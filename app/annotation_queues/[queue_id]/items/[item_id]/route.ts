// GET /annotation_queues/{queue_id}/items/{item_id} — an item with its call; DELETE — remove it
import { handle } from "@/lib/http/handle";
import { getItemWithCall } from "@/lib/queues/get-item";
import { getItemOp, removeItemOp } from "@/lib/queues/operations";
import { removeItem } from "@/lib/queues/remove-item";

export const GET = handle(getItemOp, ({ principal, params }) => getItemWithCall(principal, params.queue_id, params.item_id));
export const DELETE = handle(removeItemOp, ({ principal, params }) => removeItem(principal, params.queue_id, params.item_id));
