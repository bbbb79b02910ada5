// POST /feedback/create — record feedback (W&B Weave's shape)
import { createFeedbackOp } from "@/lib/feedback/operations";
import { createFeedback } from "@/lib/feedback/write-feedback";
import { handle } from "@/lib/http/handle";

export const POST = handle(createFeedbackOp, ({ principal, body }) => createFeedback(principal, body));
