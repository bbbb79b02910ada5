// GET /v1/preview/models/{model_id}/checkpoints — list; POST — import an adapter; DELETE — delete by step
import { handle } from "@/lib/http/handle";
import { deleteCheckpoints, listCheckpoints } from "@/lib/training/models/checkpoints";
import { importCheckpoint } from "@/lib/training/models/checkpoint-import";
import { deleteCheckpointsOp, importCheckpointOp, listCheckpointsOp } from "@/lib/training/models/operations";

export const GET = handle(listCheckpointsOp, ({ principal, params, query }) => listCheckpoints(principal, params.model_id, query));

export const DELETE = handle(deleteCheckpointsOp, ({ principal, params, body }) =>
  deleteCheckpoints(principal, params.model_id, body.steps),
);

export const POST = handle(importCheckpointOp, ({ principal, params, query, body }) => importCheckpoint(principal, params.model_id, body, query.step));
