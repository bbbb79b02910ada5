// POST /feedback/purge — delete feedback rows by id
import { purgeFeedbackOp } from "@/lib/feedback/operations";
import { purgeFeedback } from "@/lib/feedback/purge-feedback";
import { handle } from "@/lib/http/handle";

export const POST = handle(purgeFeedbackOp, ({ principal, body }) => purgeFeedback(principal, body));
