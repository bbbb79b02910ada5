// GET /v1/preview/models/{model_id}/trajectory-groups — logged trajectory groups (cursor page)
import { handle } from "@/lib/http/handle";
import { listTrajectoryGroups } from "@/lib/training/models/list-trajectory-groups";
import { listTrajectoryGroupsOp } from "@/lib/training/models/operations";

export const GET = handle(listTrajectoryGroupsOp, ({ principal, params, query }) => listTrajectoryGroups(principal, params.model_id, query));
