// POST /feedback/replace — replace a feedback row in one transaction (spec §4.5)
import { replaceFeedbackOp } from "@/lib/feedback/operations";
import { replaceFeedback } from "@/lib/feedback/write-feedback";
import { handle } from "@/lib/http/handle";

export const POST = handle(replaceFeedbackOp, ({ principal, body }) => replaceFeedback(principal, body));
