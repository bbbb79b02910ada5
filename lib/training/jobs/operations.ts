import { LARGE_BODY_LIMIT } from "@/lib/contract/body-limits";
import { defineOperation } from "@/lib/contract/operation";
import { createRlJobBody, createSftJobBody, eventPage, eventQuery, jobListQuery, jobPage, jobParams, jobSchema } from "./schemas";

// Training jobs (spec §4.3). Python clients send every config key (nulls included) and may send
// NaN/Infinity literals.

export const createRlJobOp = defineOperation({
  id: "createRlTrainingJob", method: "POST", path: "/v1/preview/training-jobs", tag: "Training jobs", auth: "bearer",
  nonStandardJson: true, bodyLimit: LARGE_BODY_LIMIT,
  summary: "Queue an RL job on trajectory groups; its checkpoint is step current_step + 1",
  body: createRlJobBody, response: jobSchema,
});

export const createSftJobOp = defineOperation({
  id: "createSftTrainingJob", method: "POST", path: "/v1/preview/sft-training-jobs", tag: "Training jobs", auth: "bearer",
  nonStandardJson: true, bodyLimit: LARGE_BODY_LIMIT,
  summary: "Queue an SFT job on inline examples or an uploaded JSONL file",
  body: createSftJobBody, response: jobSchema,
});

export const listJobsOp = defineOperation({
  id: "listTrainingJobs", method: "GET", path: "/v1/preview/training-jobs", tag: "Training jobs", auth: "bearer",
  summary: "Training jobs of the caller's models, newest first (filter by model and status)",
  query: jobListQuery, response: jobPage,
});

export const getJobOp = defineOperation({
  id: "getTrainingJob", method: "GET", path: "/v1/preview/training-jobs/{training_job_id}", tag: "Training jobs", auth: "bearer",
  summary: "A training job and its status",
  params: jobParams, response: jobSchema,
});

export const listJobEventsOp = defineOperation({
  id: "getTrainingJobEvents", method: "GET", path: "/v1/preview/training-jobs/{training_job_id}/events", tag: "Training jobs", auth: "bearer",
  summary: "A job's events in order (cursor page): training_started, gradient_step…, then training_ended or training_failed",
  params: jobParams, query: eventQuery, response: eventPage,
});

export const cancelJobOp = defineOperation({
  id: "cancelTrainingJob", method: "POST", path: "/v1/preview/training-jobs/{training_job_id}/cancel", tag: "Training jobs", auth: "bearer",
  summary: "Cancel a queued or running job (it ends with training_failed and writes no checkpoint)",
  params: jobParams, response: jobSchema,
});
