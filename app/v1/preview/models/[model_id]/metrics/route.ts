// GET /v1/preview/models/{model_id}/metrics — every step's metrics, for charts
import { handle } from "@/lib/http/handle";
import { getModelMetrics } from "@/lib/training/models/model-metrics";
import { getModelMetricsOp } from "@/lib/training/models/operations";

export const GET = handle(getModelMetricsOp, ({ principal, params }) => getModelMetrics(principal, params.model_id));
