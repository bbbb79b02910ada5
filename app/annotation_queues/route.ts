// GET /annotation_queues — the queues the caller reaches; POST — create a queue
import { handle } from "@/lib/http/handle";
import { createQueue } from "@/lib/queues/create-queue";
import { listQueues } from "@/lib/queues/list-queues";
import { createQueueOp, listQueuesOp } from "@/lib/queues/operations";

export const GET = handle(listQueuesOp, ({ principal, query }) => listQueues(principal, query));
export const POST = handle(createQueueOp, ({ principal, body }) => createQueue(principal, body));
