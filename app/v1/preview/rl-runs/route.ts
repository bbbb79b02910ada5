// POST /v1/preview/rl-runs — start an RL run; GET — list runs
import { handle } from "@/lib/http/handle";
import { createRlRun, listRlRuns } from "@/lib/training/rl-runs/rl-runs";
import { createRlRunOp, listRlRunsOp } from "@/lib/training/rl-runs/operations";

export const POST = handle(createRlRunOp, ({ principal, body }) => createRlRun(principal, body));

export const GET = handle(listRlRunsOp, ({ principal, query }) => listRlRuns(principal, query));
