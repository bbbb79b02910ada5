import { z } from "zod";
import { LARGE_BODY_LIMIT } from "@/lib/http/body";
import { defineOperation } from "@/lib/http/operation";
import {
  checkpointPage,
  checkpointQuery,
  createModelBody,
  deleteCheckpointsBody,
  deletedCheckpointsSchema,
  deletedModelSchema,
  logBody,
  modelParams,
  modelSchema,
} from "@/lib/training/models/schemas";

// Models, checkpoints and logs (spec §4.2). Python clients may send NaN/Infinity literals here.

export const createModelOp = defineOperation({
  id: "createModel", method: "POST", path: "/v1/preview/models", tag: "Models", auth: "bearer", nonStandardJson: true,
  summary: "Create a trainable model from a base model (or return the existing one)",
  body: createModelBody, response: modelSchema,
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

export const logTrajectoriesOp = defineOperation({
  id: "logTrajectories", method: "POST", path: "/v1/preview/models/{model_id}/log", tag: "Models", auth: "bearer",
  nonStandardJson: true, bodyLimit: LARGE_BODY_LIMIT,
  summary: "Log trajectory groups; their averaged metrics attach to the model's current step",
  params: modelParams, body: logBody, response: z.object({}),
});
