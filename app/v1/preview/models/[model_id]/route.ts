// DELETE /v1/preview/models/{model_id} — delete a model with its checkpoints
import { handle } from "@/lib/http/handle";
import { deleteModel } from "@/lib/training/models/models";
import { deleteModelOp } from "@/lib/training/models/operations";

export const DELETE = handle(deleteModelOp, ({ principal, params }) => deleteModel(principal, params.model_id));
