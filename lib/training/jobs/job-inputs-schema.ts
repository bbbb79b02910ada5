// The inputs of a job as a remote worker gets them (docs/workers.md, "Inputs"): token ids, masks and
// weights (and, for RL, the sampler's logprobs and the advantages), never text, so no worker
// tokenizes and no tokenizer can diverge. Per-token arrays are as long as their row's `ids`, and
// entry i is about ids[i] as the target predicted from ids[0..i-1]: entry 0 is never trained.
// jobInputs (job-inputs.ts) writes it; Anneal's trainer (train-from-inputs.ts), the remote Node
// worker and the Python worker read it.
import { z } from "zod";
import { IMPORTANCE_SAMPLING_LEVELS } from "@/lib/training/rl/experimental-config";
import { loraSettingsSchema } from "@/lib/engine/model/lora-settings";

const tokenId = z.int().min(0);
const index = z.int().min(0);
const zeroOrOne = z.literal([0, 1]);

const sftRowSchema = z.object({
  ids: z.array(tokenId),
  weights: z.array(zeroOrOne).describe("1 where ids[i] is a token to learn (the assistant's), 0 elsewhere; entry 0 is 0."),
});

const sftInputsSchema = z
  .object({
    rows: z.array(sftRowSchema).describe("Every row of the job, training and validation."),
    examples: z.array(z.array(index)).describe("The training examples: each its rows (indices into rows)."),
    validation: z.array(z.array(index)).describe("The validation examples, each its rows; empty without validation."),
    steps: z
      .array(z.object({
        examples: z.array(index).describe("The training examples (indices into examples) of this gradient step."),
        learning_rate: z.number().positive(),
      }))
      .describe("The gradient steps in order: step k+1 is steps[k]; the loss of a step is the mean cross-entropy over its rows' weighted tokens."),
    steps_per_epoch: z.int().positive().describe("At each epoch's end (every steps_per_epoch steps), a job with validation measures val/loss."),
    patience: z.int().positive().describe("With validation: stop after this many epochs without a lower val/loss, keeping the best epoch's weights."),
  })
  .describe("An SFT job: its rows, examples and plan.");

const rlRowSchema = z.object({
  ids: z.array(tokenId),
  mask: z.array(zeroOrOne).describe("1 where ids[i] is a trainable token (m_t), 0 elsewhere; entry 0 is 0."),
  logprobs: z.array(z.number().nullable()).describe("The sampler's log π_old(ids[i]); null where unknown (and at entry 0)."),
  advantages: z.array(z.number()).describe("The trajectory's advantage, balanced (advantage_balance); entry 0 is 0."),
  weights: z.array(z.number()).describe("The trajectory's token weight w_t; entry 0 is 0."),
  segments: z.array(z.int().min(-1)).describe("Which of the step's trajectories the row belongs to (0-based); −1 at entry 0."),
});

const rlLossSchema = z
  .object({
    ppo: z.boolean(),
    epsilon: z.number(),
    epsilon_high: z.number(),
    importance_sampling_level: z.enum(IMPORTANCE_SAMPLING_LEVELS),
    max_negative_advantage_importance_sampling_weight: z.number().nullable().describe("ρ ← min(ρ, M) before the loss; null: off."),
    mask_prob_ratio: z.boolean(),
    kimi_k2_tau: z.number().describe("A ← A − τ·sg(Δ); 0: off."),
  })
  .describe("The job's experimental_config resolved: docs/rl-loss.md's loss with these settings.");

const rlInputsSchema = z
  .object({
    steps: z
      .array(z.object({ rows: z.array(rlRowSchema), num_trajectories: z.int().positive() }))
      .describe("One micro-batch per gradient step: a trajectory's rows always share a step."),
    loss: rlLossSchema,
    learning_rate: z.number().positive(),
    precalculate_logprobs: z.boolean().describe("Before the first step, replace every trainable token's logprob by the starting weights' own."),
    stats: z
      .object({
        reward: z.number(),
        reward_std_dev: z.number(),
        num_groups_submitted: z.int(),
        num_groups_trainable: z.int(),
        num_trajectories: z.int(),
      })
      .describe("The job's reward statistics, echoed in each step's metrics."),
  })
  .describe("An RL job: its micro-batches and loss settings.");

export const jobInputsSchema = z
  .object({
    kind: z.enum(["sft", "rl"]),
    mode: z.enum(["lora", "full"]).describe("A LoRA adapter over the base, or full weights."),
    step: z.int().positive().describe("The checkpoint step the job writes."),
    seed: z.int().describe("Seeds a fresh adapter's A and the dropout masks."),
    pad_id: tokenId.describe("The id Anneal's trainer fills rows with after their last token (never a target: any id would do)."),
    max_grad_norm: z.number().positive().describe("Each step's gradient is clipped to this global norm."),
    lora: loraSettingsSchema.nullable().describe("The adapter's settings (mode lora), target_modules in Hugging Face names; null for full weights."),
    start: z
      .object({
        adapter: z.string().nullable().optional().describe("The model's newest adapter to continue (null: a fresh one, B = 0)."),
        gguf: z.string().nullable().optional().describe("Full weights: the newest checkpoint's GGUF (null: the base)."),
      })
      .optional()
      .describe("Where the worker downloads what the job starts from."),
    resume: z
      .object({ step: z.int().min(0), format: z.string(), url: z.string() })
      .nullable()
      .optional()
      .describe("The last state an earlier attempt saved, when one was committed."),
    sft: sftInputsSchema.nullable(),
    rl: rlInputsSchema.nullable(),
  })
  .describe("A job as token ids (docs/workers.md, \"Inputs\").");

export type JobInputs = z.infer<typeof jobInputsSchema>;
export type SftInputs = z.infer<typeof sftInputsSchema>;
export type RlInputs = z.infer<typeof rlInputsSchema>;
