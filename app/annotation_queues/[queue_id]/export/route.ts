// GET /annotation_queues/{queue_id}/export — a queue's annotations as a CSV or JSONL file
import { handle } from "@/lib/http/handle";
import { exportAnnotations } from "@/lib/queues/export-annotations";
import { exportAnnotationsOp } from "@/lib/queues/operations";

export const GET = handle(exportAnnotationsOp, ({ principal, params, query }) => exportAnnotations(principal, params.queue_id, query));
