// GET /v1/models — base models first (default marked), then the caller's trained models
import { handle } from "@/lib/http/handle";
import { listModels } from "@/lib/inference/list-models";
import { listModelsOp } from "@/lib/inference/operations";

export const GET = handle(listModelsOp, ({ principal }) => listModels(principal));
