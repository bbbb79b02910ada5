import { z } from "zod";
import { nameSchema } from "@/lib/auth/names";
import { pageQuerySchema, pageSchema } from "@/lib/http/pagination";
import { trajectoryGroupSchema } from "@/lib/training/trajectories/schemas";

// Models, checkpoints and trajectory logs as ART's serverless client uses them (contract.md
// "Models and checkpoints"; reference/art-contract.md §2).

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

export const logBody = z.object({
  split: z.string().min(1).max(64).regex(/^[A-Za-z0-9._-]+$/, "letters, digits, . _ -"),
  trajectory_groups: z.array(trajectoryGroupSchema),
});
