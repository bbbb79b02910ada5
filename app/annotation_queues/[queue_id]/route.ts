// GET, PATCH, DELETE /annotation_queues/{queue_id} — read, change, delete a queue
import { handle } from "@/lib/http/handle";
import { deleteQueue, getQueue } from "@/lib/queues/get-queue";
import { deleteQueueOp, getQueueOp, updateQueueOp } from "@/lib/queues/operations";
import { updateQueue } from "@/lib/queues/update-queue";

export const GET = handle(getQueueOp, ({ principal, params }) => getQueue(principal, params.queue_id));
export const PATCH = handle(updateQueueOp, ({ principal, params, body }) => updateQueue(principal, params.queue_id, body));
export const DELETE = handle(deleteQueueOp, ({ principal, params }) => deleteQueue(principal, params.queue_id));
