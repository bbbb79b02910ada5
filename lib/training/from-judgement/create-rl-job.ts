// POST /v1/preview/judgement/rl-jobs: RL from human scores in one request — the groups are built
// here (buildRlGroups) and queued as an RL job that keeps their lineage. With no group of two or
// more trajectories there is nothing to train: a 400 that says why.
import type { Principal } from "@/lib/auth/principal";
import { badRequest } from "@/lib/contract/errors";
import { createRlJob } from "@/lib/training/jobs/jobs";
import type { JobDto } from "@/lib/training/jobs/schemas";
import { buildRlGroups } from "./build-rl-groups";
import type { RlJobBody } from "./schemas";

export async function createRlJobFromJudgement(principal: Principal, body: RlJobBody): Promise<JobDto> {
  const { groups, preview, source } = await buildRlGroups(principal, body);
  if (groups.length === 0) {
    const why = preview.left_out.map((l) => `${l.count} ${l.count === 1 ? "call" : "calls"}: ${l.message}`).join("; ");
    const among = `${preview.matched} call${preview.matched === 1 ? "" : "s"}`;
    throw badRequest(`No group of two or more scored trajectories among the ${among}${why ? `: ${why}` : ""}.`);
  }
  return createRlJob(principal, { model_id: body.model_id, trajectory_groups: groups, experimental_config: body.experimental_config }, source);
}
