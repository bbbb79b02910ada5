// POST /v1/preview/judgement/rl-jobs — queue an RL job from human scores
import { handle } from "@/lib/http/handle";
import { createRlJobFromJudgement } from "@/lib/training/from-judgement/create-rl-job";
import { createRlJobFromJudgementOp } from "@/lib/training/from-judgement/operations";

export const POST = handle(createRlJobFromJudgementOp, ({ principal, body }) => createRlJobFromJudgement(principal, body));
