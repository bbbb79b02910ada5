// GET /annotation_queues/{queue_id}/items — list items; POST — add calls
import { handle } from "@/lib/http/handle";
import { addItems } from "@/lib/queues/add-items";
import { listItems } from "@/lib/queues/list-items";
import { addItemsOp, listItemsOp } from "@/lib/queues/operations";

export const GET = handle(listItemsOp, ({ principal, params, query }) => listItems(principal, params.queue_id, query));
export const POST = handle(addItemsOp, ({ principal, params, body }) => addItems(principal, params.queue_id, body));
