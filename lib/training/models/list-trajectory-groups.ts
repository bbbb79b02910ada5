import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { CURSOR_SELECT, pageByCreation } from "@/lib/contract/pagination";
import { findModelForCaller } from "@/lib/training/models/find-model";
import type { LoggedTrajectoryGroupDto, TrajectoryGroupsQuery } from "@/lib/training/models/schemas";

type LoggedGroupRow = { id: string; split: string; step: number; rewardMean: number; trajectories: unknown; createdAt: Date };

function toLoggedGroupDto(row: LoggedGroupRow): LoggedTrajectoryGroupDto {
  return {
    id: row.id,
    split: row.split,
    step: row.step,
    reward_mean: row.rewardMean,
    trajectories: row.trajectories as LoggedTrajectoryGroupDto["trajectories"],
    created_at: row.createdAt.toISOString(),
  };
}

/** GET .../trajectory-groups: the groups logged to a model (POST .../log), optionally of one split
 *  and step, as a cursor page in logging order. */
export async function listTrajectoryGroups(principal: Principal, modelId: string, query: TrajectoryGroupsQuery) {
  await findModelForCaller(principal, modelId, "use");
  const scope = { modelId, ...(query.split ? { split: query.split } : {}), ...(query.step !== undefined ? { step: query.step } : {}) };
  const db = getDb();
  return pageByCreation({
    query,
    findCursor: (id) => db.loggedTrajectoryGroup.findFirst({ where: { id, modelId }, select: CURSOR_SELECT }),
    findRows: ({ where, orderBy, take }) => db.loggedTrajectoryGroup.findMany({ where: { AND: [scope, where] }, orderBy, take }),
    toDto: toLoggedGroupDto,
  });
}
