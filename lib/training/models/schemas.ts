import { z } from "zod";
import { nameSchema, projectRefSchema } from "@/lib/auth/names";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";
import { jobWarningSchema } from "@/lib/training/jobs/job-report";
import { historySchema, trajectoryGroupSchema } from "@/lib/training/trajectories/schemas";
import { loraSettingsSchema } from "@/lib/engine/model/lora-settings";

// Models, checkpoints and trajectory logs as ART's serverless client uses them (docs/contract.md
// "Models and checkpoints").

export const modelParams = z.object({ model_id: z.string().uuid() });

export const createModelBody = z.object({
  entity: nameSchema.optional().describe("The team; default: the caller's personal team (or the key's team)."),
  project: nameSchema,
  name: nameSchema,
  base_model: z.string().min(1),
  return_existing: z.boolean().default(false),
  lora: loraSettingsSchema
    .nullable()
    .default(null)
    .describe("null (default): train full weights (Anneal's own bases). An object, even {}: train a LoRA adapter with these settings."),
});

export const modelSchema = z.object({
  id: z.string().uuid(),
  entity: z.string(),
  project: z.string(),
  name: z.string(),
  base_model: z.string(),
  run_id: z.string(),
  current_step: z.number().int(),
  lora: loraSettingsSchema.nullable().describe("The LoRA settings it trains with; null: full weights."),
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
  name: nameSchema.optional().describe("Only the model of this name (with `project`, at most one: how the console finds a model it knows by its inference name)."),
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

/** A model's training history on one axis, for charts across jobs and the checkpoint picker. */
export const learningCurveSchema = z.object({
  jobs: z
    .array(
      z.object({
        id: z.string().uuid(),
        kind: z.enum(["rl", "sft"]),
        status: z.enum(["queued", "running", "succeeded"]),
        checkpoint_step: z.number().int().nullable(),
        first_global_step: z.number().int().describe("Its first gradient step on the model's axis (1-based)."),
        last_global_step: z.number().int().describe("Its last so far; first_global_step − 1 while it has taken none."),
        created_at: z.string(),
        warnings: z.array(jobWarningSchema).describe("The job's guard-rail warnings (its checkpoint looks worse than its start), shown wherever the checkpoint can be picked."),
      }),
    )
    .describe("The jobs that trained the weights, in queue order (failed and cancelled jobs changed nothing and are left out), then those still to finish."),
  gradient_steps: z
    .array(z.object({ global_step: z.number().int(), job_id: z.string().uuid(), metrics }))
    .describe("Each job's gradient_step metrics at its steps' place on the axis (at most 500 evenly spaced steps per job, and every step with a metric most steps lack)."),
  model_steps: z
    .array(
      z.object({
        step: z.number().int(),
        global_step: z.number().int().describe("Where the step sits on the axis: the end of the job that wrote it (0: the base model)."),
        job_id: z.string().uuid().nullable(),
        checkpoint_id: z.string().uuid().nullable().describe("Null: no checkpoint to serve (step 0 is the base model; or it was deleted)."),
        created_at: z.string().nullable(),
        metrics,
      }),
    )
    .describe("Every step with a checkpoint or logged metrics, by step: the checkpoint's metrics overlaid by those logged at its step."),
});
export type LearningCurveDto = z.infer<typeof learningCurveSchema>;
