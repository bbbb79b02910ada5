import { z } from "zod";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";
import { chatMessageSchema } from "@/lib/inference/chat-request";
import { checkerSchema } from "@/lib/training/checkers/checker-config";
import { experimentalConfigSchema } from "@/lib/training/rl/experimental-config";
import { MAX_RUN_PROMPTS } from "./limits";

// RL runs (docs: RL runs): prompts, a built-in reward checker and the loop's sizes in; the run as
// GET returns it, with one entry per iteration (rewards, the job it launched, the checkpoint).

export const RUN_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const FINISHED_RUN_STATUSES: readonly RunStatus[] = ["succeeded", "failed", "cancelled"];

export const runPromptSchema = z.object({
  messages: z.array(chatMessageSchema).min(1),
  reference: z.string().optional().describe("The expected answer: what exact_match and numeric_match compare the reply with."),
});
export type RunPrompt = z.infer<typeof runPromptSchema>;

export const promptSourceSchema = z.discriminatedUnion("source", [
  z.object({ source: z.literal("inline"), items: z.array(runPromptSchema).min(1).max(MAX_RUN_PROMPTS) }),
  z.object({ source: z.literal("file"), file_id: z.string().uuid().describe("An uploaded JSONL file (POST /v1/files): one {messages, reference?} object per line.") }),
  z.object({
    source: z.literal("calls"),
    call_ids: z.array(z.string().uuid()).min(1).max(MAX_RUN_PROMPTS)
      .describe("Recorded calls: each prompt is the call's messages up to its last user turn; the reference is its newest corrected reply, if any."),
  }),
  z.object({ source: z.literal("queue"), queue_id: z.string().uuid().describe("An annotation queue: its items' calls, as for `calls`.") }),
]);
export type PromptSource = z.infer<typeof promptSourceSchema>;

export const createRlRunBody = z.object({
  model_id: z.string().uuid(),
  prompts: promptSourceSchema,
  checker: checkerSchema,
  group_size: z.number().int().min(2).max(32).default(4).describe("Completions sampled per prompt (one trajectory group)."),
  iterations: z.number().int().min(1).max(200).default(4).describe("Rollout → job → checkpoint rounds."),
  prompts_per_iteration: z.number().int().min(1).max(128).default(8).describe("Prompts rolled out per iteration, taken in turn from the list."),
  temperature: z.number().min(0).max(2).default(1),
  max_tokens: z.number().int().min(1).max(1024).default(32),
  seed: z.number().int().min(0).max(2_147_483_647).optional()
    .describe("Makes the rollouts reproducible: each prompt's request samples from a seed derived from this one, the iteration and the prompt's place in it. Omitted: random."),
  experimental_config: experimentalConfigSchema.optional().describe("Each RL job's experimental_config (learning_rate, ...)."),
});
export type CreateRlRunBody = z.output<typeof createRlRunBody>;

export const rlRunParams = z.object({ rl_run_id: z.string().uuid() });

export const iterationSchema = z.object({
  iteration: z.number().int(),
  /** The checkpoint the rollouts were sampled from (0 = the base model). */
  rollout_step: z.number().int(),
  reward_mean: z.number(),
  reward_std: z.number(),
  trajectories: z.number().int(),
  /** Groups whose rewards differ: the only ones an RL job learns from. */
  trainable_groups: z.number().int(),
  /** The RL job of the iteration; null when no group had different rewards (nothing to learn). */
  job_id: z.string().uuid().nullable(),
  /** The checkpoint its job wrote, once it succeeded. */
  checkpoint_step: z.number().int().nullable(),
  rolled_out_at: z.string(),
  finished_at: z.string().nullable(),
});
export type IterationDto = z.infer<typeof iterationSchema>;

export const rlRunSchema = z.object({
  id: z.string().uuid(),
  model_id: z.string().uuid(),
  status: z.enum(RUN_STATUSES),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  error: z.string().nullable(),
  prompt_source: z.record(z.string(), z.unknown()),
  prompt_count: z.number().int(),
  checker: z.record(z.string(), z.unknown()),
  group_size: z.number().int(),
  iterations: z.number().int(),
  prompts_per_iteration: z.number().int(),
  temperature: z.number(),
  max_tokens: z.number().int(),
  /** The rollouts' seed; null when they sample at random. */
  seed: z.number().int().nullable(),
  experimental_config: z.record(z.string(), z.unknown()),
  /** Iterations finished. */
  iterations_done: z.number().int(),
  /** The job the iteration in progress waits for. */
  current_job_id: z.string().uuid().nullable(),
  cancel_requested: z.boolean(),
  history: z.array(iterationSchema),
});
export type RlRunDto = z.infer<typeof rlRunSchema>;

export const rlRunPage = pageSchema(rlRunSchema);
export const rlRunListQuery = pageQuerySchema.extend({
  order: z.enum(["asc", "desc"]).default("desc"),
  model_id: z.string().uuid().optional(),
  status: z.enum(RUN_STATUSES).optional(),
});
export type RlRunListQuery = z.infer<typeof rlRunListQuery>;
