import { z } from "zod";
import { LARGE_BODY_LIMIT } from "@/lib/contract/body-limits";
import { defineOperation } from "@/lib/contract/operation";
import {
  checkpointPage,
  checkpointQuery,
  createModelBody,
  deleteCheckpointsBody,
  deletedCheckpointsSchema,
  deletedModelSchema,
  learningCurveSchema,
  listModelsQuery,
  logBody,
  loggedTrajectoryGroupPage,
  modelDetailSchema,
  modelMetricsSchema,
  modelPage,
  modelParams,
  modelSchema,
  trajectoryGroupsQuery,
} from "@/lib/training/models/schemas";
import { checkpointFeedbackSchema } from "./checkpoint-feedback-schema";
import { checkpointDownloadQuery, checkpointImportBody, checkpointImportQuery, checkpointParams, importedCheckpointSchema } from "./checkpoint-transfer-schemas";

// Models, checkpoints and logs (spec §4.2), and the feedback on the calls each checkpoint served.
// Python clients may send NaN/Infinity literals here.

export const createModelOp = defineOperation({
  id: "createModel", method: "POST", path: "/v1/preview/models", tag: "Models", auth: "bearer", nonStandardJson: true,
  summary: "Create a trainable model from a base model (or return the existing one)",
  body: createModelBody, response: modelSchema,
});

export const listTrainedModelsOp = defineOperation({
  id: "listTrainedModels", method: "GET", path: "/v1/preview/models", tag: "Models", auth: "bearer",
  summary: "Models the caller can use, newest first (cursor page); filter by project or team",
  query: listModelsQuery, response: modelPage,
});

export const getModelOp = defineOperation({
  id: "getModel", method: "GET", path: "/v1/preview/models/{model_id}", tag: "Models", auth: "bearer",
  summary: "One model, with its newest checkpoint's step",
  params: modelParams, response: modelDetailSchema,
});

export const deleteModelOp = defineOperation({
  id: "deleteModel", method: "DELETE", path: "/v1/preview/models/{model_id}", tag: "Models", auth: "bearer",
  summary: "Delete a model with its checkpoints, logs and metrics",
  params: modelParams, response: deletedModelSchema,
});

export const listCheckpointsOp = defineOperation({
  id: "listCheckpoints", method: "GET", path: "/v1/preview/models/{model_id}/checkpoints", tag: "Models", auth: "bearer",
  summary: "A model's checkpoints by step (cursor page)",
  params: modelParams, query: checkpointQuery, response: checkpointPage,
});

export const deleteCheckpointsOp = defineOperation({
  id: "deleteCheckpoints", method: "DELETE", path: "/v1/preview/models/{model_id}/checkpoints", tag: "Models", auth: "bearer",
  summary: "Delete checkpoints by step",
  params: modelParams, body: deleteCheckpointsBody, response: deletedCheckpointsSchema,
});

export const importCheckpointOp = defineOperation({
  id: "importCheckpoint", method: "POST", path: "/v1/preview/models/{model_id}/checkpoints", tag: "Models", auth: "bearer", status: 201,
  bodyKind: "binary", binaryTypes: ["application/zip", "application/octet-stream"], bodyLimit: LARGE_BODY_LIMIT,
  summary:
    "Import a LoRA adapter trained elsewhere as the model's next checkpoint: a zipped PEFT directory (application/zip) or a GGUF LoRA " +
    "(application/octet-stream), of the model's base, rank, alpha and modules; served at once",
  params: modelParams, query: checkpointImportQuery, body: checkpointImportBody, response: importedCheckpointSchema,
});

export const downloadCheckpointOp = defineOperation({
  id: "downloadCheckpoint", method: "GET", path: "/v1/preview/models/{model_id}/checkpoints/{step}/download", tag: "Models", auth: "bearer",
  summary: "A checkpoint as a file: its GGUF LoRA adapter, a PEFT zip, the base with the adapter merged (F16 GGUF), or a full-weights GGUF",
  params: checkpointParams, query: checkpointDownloadQuery,
});

export const logTrajectoriesOp = defineOperation({
  id: "logTrajectories", method: "POST", path: "/v1/preview/models/{model_id}/log", tag: "Models", auth: "bearer",
  nonStandardJson: true, bodyLimit: LARGE_BODY_LIMIT,
  summary: "Log trajectory groups; their averaged metrics attach to the model's current step",
  params: modelParams, body: logBody, response: z.object({}),
});

export const listTrajectoryGroupsOp = defineOperation({
  id: "listTrajectoryGroups", method: "GET", path: "/v1/preview/models/{model_id}/trajectory-groups", tag: "Models", auth: "bearer",
  summary: "Trajectory groups logged to a model, optionally of one split and step (cursor page)",
  params: modelParams, query: trajectoryGroupsQuery, response: loggedTrajectoryGroupPage,
});

export const getModelMetricsOp = defineOperation({
  id: "getModelMetrics", method: "GET", path: "/v1/preview/models/{model_id}/metrics", tag: "Models", auth: "bearer",
  summary: "Every step's metrics (checkpoint and logged ones merged), by step",
  params: modelParams, response: modelMetricsSchema,
});

export const getLearningCurveOp = defineOperation({
  id: "getLearningCurve", method: "GET", path: "/v1/preview/models/{model_id}/learning-curve", tag: "Models", auth: "bearer",
  summary: "The model's jobs, their gradient steps and its checkpoints on one axis (global gradient step), for charts across jobs",
  params: modelParams, response: learningCurveSchema,
});

export const feedbackByCheckpointOp = defineOperation({
  id: "feedbackByCheckpoint", method: "GET", path: "/v1/preview/models/{model_id}/feedback-by-checkpoint", tag: "Models", auth: "bearer",
  summary: "Each checkpoint of a trained model side by side: the calls it served, their feedback, thumbs up/down and the mean of each numeric annotation spec",
  params: modelParams, response: checkpointFeedbackSchema,
});
