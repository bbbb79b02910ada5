// POST /v1/preview/judgement/rl-groups — preview RL groups from human scores
import { handle } from "@/lib/http/handle";
import { buildRlGroups } from "@/lib/training/from-judgement/build-rl-groups";
import { previewRlGroupsOp } from "@/lib/training/from-judgement/operations";

export const POST = handle(previewRlGroupsOp, async ({ principal, body }) => (await buildRlGroups(principal, body)).preview);
