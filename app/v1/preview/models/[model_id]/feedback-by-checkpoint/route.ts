// GET /v1/preview/models/{model_id}/feedback-by-checkpoint — each checkpoint's calls and their feedback, side by side
import { feedbackByCheckpoint } from "@/lib/feedback/checkpoint-feedback";
import { feedbackByCheckpointOp } from "@/lib/feedback/stats-operations";
import { handle } from "@/lib/http/handle";

export const GET = handle(feedbackByCheckpointOp, ({ principal, params }) => feedbackByCheckpoint(principal, params.model_id));
