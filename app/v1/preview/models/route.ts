// POST /v1/preview/models — create a model (or return the existing one)
import { handle } from "@/lib/http/handle";
import { createModel } from "@/lib/training/models/models";
import { createModelOp } from "@/lib/training/models/operations";

export const POST = handle(createModelOp, ({ principal, body }) => createModel(principal, body));
