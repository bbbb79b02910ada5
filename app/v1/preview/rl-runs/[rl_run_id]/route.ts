// GET /v1/preview/rl-runs/{rl_run_id} — a run, its iterations' rewards, jobs and checkpoints
import { handle } from "@/lib/http/handle";
import { getRlRun } from "@/lib/training/rl-runs/rl-runs";
import { getRlRunOp } from "@/lib/training/rl-runs/operations";

export const GET = handle(getRlRunOp, ({ principal, params }) => getRlRun(principal, params.rl_run_id));
