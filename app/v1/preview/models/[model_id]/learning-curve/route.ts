// GET /v1/preview/models/{model_id}/learning-curve — jobs, gradient steps and checkpoints on one axis
import { handle } from "@/lib/http/handle";
import { getLearningCurve } from "@/lib/training/models/learning-curve";
import { getLearningCurveOp } from "@/lib/training/models/operations";

export const GET = handle(getLearningCurveOp, ({ principal, params }) => getLearningCurve(principal, params.model_id));
