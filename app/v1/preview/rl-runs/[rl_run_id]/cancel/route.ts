// POST /v1/preview/rl-runs/{rl_run_id}/cancel — cancel a run and the job of its iteration in progress
import { handle } from "@/lib/http/handle";
import { cancelRlRun } from "@/lib/training/rl-runs/rl-runs";
import { cancelRlRunOp } from "@/lib/training/rl-runs/operations";

export const POST = handle(cancelRlRunOp, ({ principal, params }) => cancelRlRun(principal, params.rl_run_id));
