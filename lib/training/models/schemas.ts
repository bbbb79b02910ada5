import { z } from "zod";
import { nameSchema, projectRefSchema } from "@/lib/auth/names";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";
import { historySchema, trajectoryGroupSchema } from "@/lib/training/trajectories/schemas";

// Models, checkpoints and trajectory logs as ART's serverless client uses them (docs/contract.md
// "Models and checkpoints").

export const modelParams = z.object({ model_id: z.string().uuid() });

export const createModelBody = z.object({
  entity: nameSchema.optional().describe("The team; default: the caller's personal team (or the key's team)."),
  project: nameSchema,
  name: nameSchema,
  base_model: z.string().min(1),
  return_existing: z.boolean().default(false),
});

export const modelSchema = z.object({
  id: z.string().uuid(),
  entity: z.string(),
  project: z.string(),
  name: z.string(),
  base_model: z.string(),
  run_id: z.string(),
  current_step: z.number().int(),
  created_at: z.string(),
});
export type ModelDto = z.infer<typeof modelSchema>;

/** A model as the browse endpoints (Anneal's) return it: plus its newest surviving checkpoint. */
export const modelDetailSchema = modelSchema.extend({
  latest_checkpoint_step: z.number().int().nullable().describe("The newest surviving checkpoint's step; null: none (step 0 serves the base)."),
});
export type ModelDetailDto = z.infer<typeof modelDetailSchema>;
export const modelPage = pageSchema(modelDetailSchema);

export const listModelsQuery = pageQuerySchema.extend({
  order: z.enum(["asc", "desc"]).default("desc"),
  project: projectRefSchema.optional().describe("Only this project's models: `<team>/<project>`."),
  entity: nameSchema.optional().describe("Only this team's models."),
});
export type ListModelsQuery = z.infer<typeof listModelsQuery>;

export const deletedModelSchema = z.object({
  model_id: z.string().uuid(),
  deleted_checkpoints: z.number().int(),
  deleted_run: z.boolean(),
});

const metrics = z.record(z.string(), z.number());

export const checkpointSchema = z.object({
  id: z.string().uuid(),
  step: z.number().int(),
  metrics,
  created_at: z.string(),
});
export const checkpointPage = pageSchema(checkpointSchema);
export const checkpointQuery = pageQuerySchema;

export const deleteCheckpointsBody = z.object({ steps: z.array(z.number().int().min(1)).max(10_000) });
export const deletedCheckpointsSchema = z.object({
  deleted_count: z.number().int(),
  not_found_steps: z.array(z.number().int()),
});

export const trajectoryGroupsQuery = pageQuerySchema.extend({
  split: z.string().min(1).optional(),
  step: z.coerce.number().int().min(0).optional(),
});
export type TrajectoryGroupsQuery = z.infer<typeof trajectoryGroupsQuery>;

/** A trajectory as logged: its conversation (messages and the model's choices), reward and metrics. */
export const loggedTrajectorySchema = historySchema.extend({
  reward: z.number(),
  metrics: z.record(z.string(), z.unknown()).nullish(),
  additional_histories: z.array(historySchema).nullish(),
});
export const loggedTrajectoryGroupSchema = z.object({
  id: z.string().uuid(),
  split: z.string(),
  step: z.number().int(),
  reward_mean: z.number(),
  trajectories: z.array(loggedTrajectorySchema),
  created_at: z.string(),
});
export type LoggedTrajectoryGroupDto = z.infer<typeof loggedTrajectoryGroupSchema>;
export const loggedTrajectoryGroupPage = pageSchema(loggedTrajectoryGroupSchema);

/** Every step's metrics, checkpoint and logged ones merged, for charts. */
export const modelMetricsSchema = z.object({
  data: z.array(z.object({ step: z.number().int(), metrics })),
});

export const logBody = z.object({
  split: z.string().min(1).max(64).regex(/^[A-Za-z0-9._-]+$/, "letters, digits, . _ -"),
  trajectory_groups: z.array(trajectoryGroupSchema),
});
