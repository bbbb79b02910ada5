// DELETE /v1/preview/base-models/{base_model_id} — remove a base added by API (instance admins)
import { deleteBaseModelOp } from "@/lib/base-models/operations";
import { deleteBaseModel } from "@/lib/base-models/manage-base-models";
import { handle } from "@/lib/http/handle";

export const DELETE = handle(deleteBaseModelOp, ({ params }) => deleteBaseModel(params.base_model_id));
