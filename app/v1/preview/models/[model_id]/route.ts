// GET /v1/preview/models/{model_id} — one model; DELETE — delete it with its checkpoints
import { handle } from "@/lib/http/handle";
import { getModel } from "@/lib/training/models/list-models";
import { deleteModel } from "@/lib/training/models/models";
import { deleteModelOp, getModelOp } from "@/lib/training/models/operations";

export const GET = handle(getModelOp, ({ principal, params }) => getModel(principal, params.model_id));

export const DELETE = handle(deleteModelOp, ({ principal, params }) => deleteModel(principal, params.model_id));
