// GET /v1/preview/models/{model_id}/feedback-by-checkpoint — each checkpoint's calls and their feedback, side by side
import { handle } from "@/lib/http/handle";
import { feedbackByCheckpoint } from "@/lib/training/models/checkpoint-feedback";
import { feedbackByCheckpointOp } from "@/lib/training/models/operations";

export const GET = handle(feedbackByCheckpointOp, ({ principal, params }) => feedbackByCheckpoint(principal, params.model_id));
