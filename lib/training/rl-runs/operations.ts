import { LARGE_BODY_LIMIT } from "@/lib/contract/body-limits";
import { defineOperation } from "@/lib/contract/operation";
import { createRlRunBody, rlRunListQuery, rlRunPage, rlRunParams, rlRunSchema } from "./schemas";

// RL runs: the server runs the rollout → reward → RL job → checkpoint loop itself.

export const createRlRunOp = defineOperation({
  id: "createRlRun", method: "POST", path: "/v1/preview/rl-runs", tag: "RL runs", auth: "bearer", bodyLimit: LARGE_BODY_LIMIT,
  summary: "Start an RL run: prompts (inline, an uploaded JSONL file, recorded calls or a queue's items), a built-in checker as the reward, group size and iterations",
  body: createRlRunBody, response: rlRunSchema,
});

export const listRlRunsOp = defineOperation({
  id: "listRlRuns", method: "GET", path: "/v1/preview/rl-runs", tag: "RL runs", auth: "bearer",
  summary: "RL runs of the caller's models, newest first (filter by model and status)",
  query: rlRunListQuery, response: rlRunPage,
});

export const getRlRunOp = defineOperation({
  id: "getRlRun", method: "GET", path: "/v1/preview/rl-runs/{rl_run_id}", tag: "RL runs", auth: "bearer",
  summary: "An RL run: its status and each iteration's rewards, job and checkpoint",
  params: rlRunParams, response: rlRunSchema,
});

export const cancelRlRunOp = defineOperation({
  id: "cancelRlRun", method: "POST", path: "/v1/preview/rl-runs/{rl_run_id}/cancel", tag: "RL runs", auth: "bearer",
  summary: "Cancel a run (and the job of its iteration in progress); checkpoints already written stay",
  params: rlRunParams, response: rlRunSchema,
});
