import { z } from "zod";
import { LORA_TARGET_OF_MODULE, type LoraModule } from "@/lib/engine/model/lora";
import { LORA_RANKS } from "@/lib/engine/model/lora-settings";

// GET /v1/preview/training-estimate: a LoRA adapter's size on a base, and what a job of so many
// steps and tokens will cost (an estimate from bench:lora's measurements).

const MODULE_NAMES = Object.keys(LORA_TARGET_OF_MODULE) as [LoraModule, ...LoraModule[]];

export const trainingEstimateQuery = z.object({
  base_model: z.string().min(1).max(256).describe("A trainable base model's name (GET /v1/models)."),
  rank: z.coerce
    .number()
    .int()
    .refine((r) => (LORA_RANKS as readonly number[]).includes(r), `rank must be one of ${LORA_RANKS.join(", ")}`)
    .default(16),
  target_modules: z
    .string()
    .default(MODULE_NAMES.join(","))
    .transform((list) => list.split(",").map((m) => m.trim()).filter(Boolean))
    .pipe(z.array(z.enum(MODULE_NAMES)).min(1))
    .describe(`Comma-separated Hugging Face module names (default: all of ${MODULE_NAMES.join(", ")}).`),
  steps: z.coerce.number().int().min(1).max(1_000_000).optional().describe("The job's gradient steps; with tokens, the job's cost is estimated."),
  tokens: z.coerce.number().int().min(1).max(1e12).optional().describe("Tokens the job trains on over all its steps (an estimate is fine)."),
  rl_rows: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .optional()
    .describe("An RL job's trajectories: with tokens, its steps are counted as the server packs them (ANNEAL_RL_ROWS_PER_STEP rows, the model's token bound per step) and `steps` is not needed."),
});

const secondsRange = z.object({ low: z.number(), high: z.number() });

export const trainingEstimateSchema = z.object({
  base_model: z.string(),
  architecture: z.string(),
  parameters: z.number().int(),
  weight_type: z.string().describe("The type the base's matrices are stored in, e.g. Q8_0."),
  adapter: z.object({
    rank: z.number().int(),
    layers: z.number().int(),
    modules: z.array(z.object({ module: z.enum(MODULE_NAMES), in: z.number().int(), out: z.number().int(), parameters: z.number().int().describe("rank·(in + out), one layer") })),
    parameters: z.number().int(),
    bytes: z.number().int().describe("As stored: float32."),
  }),
  job: z
    .object({
      steps: z.number().int(),
      tokens: z.number().int(),
      tokens_per_step: z.number().int(),
      tokens_per_second: secondsRange.describe("On the slower and the faster machine measured."),
      seconds: secondsRange,
      peak_memory_bytes: z.number().int(),
    })
    .nullable()
    .describe("null unless tokens and steps (or rl_rows) are given."),
  basis: z.string().describe("Where the estimate's numbers come from."),
});

export type TrainingEstimate = z.infer<typeof trainingEstimateSchema>;
