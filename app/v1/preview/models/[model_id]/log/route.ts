// POST /v1/preview/models/{model_id}/log — log trajectory groups and their metrics
import { handle } from "@/lib/http/handle";
import { logTrajectories } from "@/lib/training/models/log-trajectories";
import { logTrajectoriesOp } from "@/lib/training/models/operations";

export const POST = handle(logTrajectoriesOp, ({ principal, params, body }) =>
  logTrajectories(principal, params.model_id, body.split, body.trajectory_groups),
);
