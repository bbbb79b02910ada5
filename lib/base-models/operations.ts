import { defineOperation } from "@/lib/contract/operation";
import { baseModelCandidatesSchema, baseModelInfoSchema, baseModelListSchema, baseModelParams, createBaseModelBody, deletedBaseModelSchema } from "./schemas";

// Base models managed by API (instance admins; anyone else is a 403, as on the other admin routes).

export const listBaseModelsOp = defineOperation({
  id: "listBaseModels", method: "GET", path: "/v1/preview/base-models", tag: "Base models", auth: "bearer", instanceAdmin: true,
  summary: "Every base model: shipped, models-file and database entries, with their GGUF facts and how many models use them (instance admins)",
  response: baseModelListSchema,
});

export const listBaseModelCandidatesOp = defineOperation({
  id: "listBaseModelCandidates", method: "GET", path: "/v1/preview/base-models/candidates", tag: "Base models", auth: "bearer", instanceAdmin: true,
  summary: "GGUF files under ANNEAL_MODELS_DIR with what the trainer says of each, before adding one (instance admins)",
  response: baseModelCandidatesSchema,
});

export const createBaseModelOp = defineOperation({
  id: "createBaseModel", method: "POST", path: "/v1/preview/base-models", tag: "Base models", auth: "bearer", instanceAdmin: true,
  summary: "Add a base model from a GGUF file under ANNEAL_MODELS_DIR; every process serves it within a second (instance admins)", status: 201,
  body: createBaseModelBody, response: baseModelInfoSchema,
});

export const deleteBaseModelOp = defineOperation({
  id: "deleteBaseModel", method: "DELETE", path: "/v1/preview/base-models/{base_model_id}", tag: "Base models", auth: "bearer", instanceAdmin: true,
  summary: "Remove a base model added by API (409 while models use it; shipped and models-file bases cannot be removed here) (instance admins)",
  params: baseModelParams, response: deletedBaseModelSchema,
});
