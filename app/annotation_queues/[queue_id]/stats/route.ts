// GET /annotation_queues/{queue_id}/stats — items by status, each person's work, agreement
import { handle } from "@/lib/http/handle";
import { queueStatsOp } from "@/lib/queues/operations";
import { queueStats } from "@/lib/queues/queue-stats";

export const GET = handle(queueStatsOp, ({ principal, params }) => queueStats(principal, params.queue_id));
