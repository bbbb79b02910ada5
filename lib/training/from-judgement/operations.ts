import { defineOperation } from "@/lib/contract/operation";
import { jobSchema } from "@/lib/training/jobs/schemas";
import { rlGroupsBody, rlGroupsSchema, rlJobBody, sftDatasetBody, sftDatasetSchema } from "./schemas";

// Training data from human judgement (docs/annotation-queues.md "Training from judgement"): an SFT
// dataset file, RL groups to preview, and an RL job on them.

export const buildSftDatasetOp = defineOperation({
  id: "buildSftDatasetFromJudgement", method: "POST", path: "/v1/preview/judgement/sft-dataset", tag: "Training from judgement", auth: "bearer",
  summary: "Save an SFT dataset (JSONL file, purpose fine-tune) from a queue's or a call-log filter's calls whose annotations pass a rule, with corrected replies in place of the model's",
  body: sftDatasetBody, response: sftDatasetSchema,
});

export const previewRlGroupsOp = defineOperation({
  id: "previewRlGroupsFromJudgement", method: "POST", path: "/v1/preview/judgement/rl-groups", tag: "Training from judgement", auth: "bearer",
  summary: "Preview the trajectory groups an RL job from human scores would train on (choices of one call, or calls with the same prompt), and the groups of one left out",
  body: rlGroupsBody, response: rlGroupsSchema,
});

export const createRlJobFromJudgementOp = defineOperation({
  id: "createRlJobFromJudgement", method: "POST", path: "/v1/preview/judgement/rl-jobs", tag: "Training from judgement", auth: "bearer",
  summary: "Queue an RL job on the trajectory groups built from human scores; the job keeps their lineage as `source`",
  body: rlJobBody, response: jobSchema,
});
