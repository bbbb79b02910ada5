// GET /v1/preview/base-models — every base model; POST — add one from ANNEAL_MODELS_DIR (instance admins)
import { createBaseModelOp, listBaseModelsOp } from "@/lib/base-models/operations";
import { createBaseModel, listBaseModels } from "@/lib/base-models/manage-base-models";
import { handle } from "@/lib/http/handle";

export const GET = handle(listBaseModelsOp, () => listBaseModels());

export const POST = handle(createBaseModelOp, ({ principal, body }) => createBaseModel(principal, body));
