// POST /feedback/query — a project's feedback matching a query (W&B Weave's query language)
import { queryFeedbackOp } from "@/lib/feedback/operations";
import { queryFeedback } from "@/lib/feedback/query-feedback";
import { handle } from "@/lib/http/handle";

export const POST = handle(queryFeedbackOp, ({ principal, body }) => queryFeedback(principal, body));
