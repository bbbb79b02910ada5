import { z } from "zod";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";
import { judgementSourceSchema } from "@/lib/training/from-judgement/schemas";
import { experimentalConfigSchema } from "@/lib/training/rl/experimental-config";
import { sftConfigSchema } from "@/lib/training/sft/sft-config";
import { sftExampleSchema } from "@/lib/training/sft/tokenize-sft-example";
import { jobWarningSchema, replySampleSchema } from "./job-report";
import { trajectoryGroupSchema } from "@/lib/training/trajectories/schemas";

// Training jobs (spec §4.3, docs/contract.md "Training jobs"): RL and SFT submissions, the job as GET
// returns it, and its event feed.

export const JOB_KINDS = ["rl", "sft"] as const;
export type JobKind = (typeof JOB_KINDS)[number];
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const FINISHED_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "cancelled"];

export const EVENT_TYPES = ["training_started", "gradient_step", "training_ended", "training_failed"] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const jobParams = z.object({ training_job_id: z.string().uuid() });

export const createRlJobBody = z.object({
  model_id: z.string().uuid(),
  trajectory_groups: z.array(trajectoryGroupSchema),
  experimental_config: experimentalConfigSchema.optional(),
});
export type CreateRlJobBody = z.infer<typeof createRlJobBody>;

export const createSftJobBody = z
  .object({
    model_id: z.string().uuid(),
    training_data_url: z.string().min(1).optional().describe("A file id from POST /v1/files, or anneal-file:///<id>."),
    training_data: z.array(sftExampleSchema).min(1).optional(),
    config: sftConfigSchema.optional(),
    validation_data_url: z.string().min(1).optional().describe("Validation examples of their own: a file id from POST /v1/files, or anneal-file:///<id>."),
    validation_data: z.array(sftExampleSchema).min(1).optional().describe("Validation examples inline (never trained on): val/* metrics at each epoch."),
  })
  .refine((b) => (b.training_data_url === undefined) !== (b.training_data === undefined), {
    message: "give exactly one of training_data_url (an uploaded file) and training_data (inline examples)",
    path: ["training_data"],
  })
  .refine((b) => b.validation_data_url === undefined || b.validation_data === undefined, {
    message: "give at most one of validation_data_url and validation_data",
    path: ["validation_data"],
  })
  .refine((b) => (b.validation_data_url === undefined && b.validation_data === undefined) || !b.config?.validation_fraction, {
    message: "validation examples of their own and a validation_fraction of the training data exclude each other",
    path: ["config", "validation_fraction"],
  });
export type CreateSftJobBody = z.infer<typeof createSftJobBody>;

export const jobIdSchema = z.object({ id: z.string().uuid() });

export const jobSchema = z.object({
  id: z.string().uuid(),
  model_id: z.string().uuid(),
  kind: z.enum(JOB_KINDS),
  status: z.enum(JOB_STATUSES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  /** Gradient steps the job takes (known once it started). */
  num_sequences: z.number().int().nullable(),
  steps_done: z.number().int(),
  /** The checkpoint a successful job wrote. */
  checkpoint_step: z.number().int().nullable(),
  attempts: z.number().int(),
  /** Who ran each claim, and from which gradient step it resumed (0: from the start). */
  runs: z.array(z.object({
    attempt: z.number().int(),
    worker: z.string(),
    hostname: z.string(),
    pid: z.number().int(),
    resumed_from_step: z.number().int(),
    started_at: z.string(),
  })),
  cancel_requested: z.boolean(),
  config: z.record(z.string(), z.unknown()),
  /** RL: trajectory groups and trajectories submitted; SFT: examples. */
  input_summary: z.record(z.string(), z.number()),
  /** Guard rails: the checkpoint looks worse than the weights it started from (the job still succeeded). */
  warnings: z.array(jobWarningSchema),
  /** A few greedy replies to held-out prompts by the starting weights and by the checkpoint. */
  sample_replies: z.array(replySampleSchema),
  source: judgementSourceSchema.nullable(),
  waiting_for: z.string().nullable().describe(
    'A queued job no live trainer can take: what it waits for, e.g. "a worker with base Qwen/Qwen2.5-7B-Instruct (no live worker offers it)" (docs/workers.md). Null otherwise, and in the answer to a submission.',
  ),
});
export type JobDto = z.infer<typeof jobSchema>;

export const jobPage = pageSchema(jobSchema);
export const jobListQuery = pageQuerySchema.extend({
  order: z.enum(["asc", "desc"]).default("desc"),
  model_id: z.string().uuid().optional(),
  status: z.enum(JOB_STATUSES).optional(),
});
export type JobListQuery = z.infer<typeof jobListQuery>;

export const eventSchema = z.object({
  id: z.string().uuid(),
  type: z.enum(EVENT_TYPES),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type EventDto = z.infer<typeof eventSchema>;
export const eventPage = pageSchema(eventSchema);
/** Events are chronological: no `order` (as ART reads them). */
export const eventQuery = pageQuerySchema.omit({ order: true });
export type EventQuery = z.infer<typeof eventQuery>;
