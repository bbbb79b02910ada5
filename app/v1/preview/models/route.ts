// GET /v1/preview/models — list models (cursor page); POST — create a model (or return the existing one)
import { handle } from "@/lib/http/handle";
import { listModels } from "@/lib/training/models/list-models";
import { createModel } from "@/lib/training/models/models";
import { createModelOp, listTrainedModelsOp } from "@/lib/training/models/operations";

export const GET = handle(listTrainedModelsOp, ({ principal, query }) => listModels(principal, query));

export const POST = handle(createModelOp, ({ principal, body }) => createModel(principal, body));
