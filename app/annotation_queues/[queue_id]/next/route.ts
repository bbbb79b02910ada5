// POST /annotation_queues/{queue_id}/next — claim the caller's next item
import { handle } from "@/lib/http/handle";
import { claimNextItem } from "@/lib/queues/item-claims";
import { claimNextItemOp } from "@/lib/queues/operations";

export const POST = handle(claimNextItemOp, ({ principal, params }) => claimNextItem(principal, params.queue_id));
