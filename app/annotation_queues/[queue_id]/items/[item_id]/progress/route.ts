// POST /annotation_queues/{queue_id}/items/{item_id}/progress — the caller's progress on an item (spec §4.6)
import { handle } from "@/lib/http/handle";
import { itemProgressOp } from "@/lib/queues/operations";
import { updateProgress } from "@/lib/queues/update-progress";

export const POST = handle(itemProgressOp, ({ principal, params, body }) => updateProgress(principal, params.queue_id, params.item_id, body));
