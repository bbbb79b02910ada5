import { z } from "zod";
import { projectRefSchema } from "@/lib/auth/names";
import { fileSchema } from "@/lib/files/schemas";
import { experimentalConfigSchema } from "@/lib/training/rl/experimental-config";
import { callFilter, MAX_ITEMS_PER_ADD } from "@/lib/queues/item-schemas";

// Training data from human judgement (docs/annotation-queues.md "Training from judgement"): which
// calls (a queue's, or a call-log filter's), the rule on an annotation spec that selects them, the
// corrected-reply spec (SFT) or reward spec (RL), and the lineage a job keeps of all of it.

export const RULE_OPS = [">=", ">", "=", "<=", "<"] as const;
export type RuleOp = (typeof RULE_OPS)[number];

const specName = z.string().min(1).max(128);
const rewardSpec = specName.describe("A numeric or boolean spec: its combined value is each trajectory's reward (true = 1, false = 0).");

export const ruleSchema = z
  .object({
    spec: specName.describe("An annotation spec of the project: numeric, boolean or categorical."),
    op: z.enum(RULE_OPS).optional().describe("Numeric specs: how the value compares with `value`."),
    value: z.union([z.number().finite(), z.boolean()]).optional().describe("Numeric specs: the number `op` compares with; boolean specs: the value a call needs (true or false)."),
    in: z.array(z.string().min(1).max(1024)).min(1).max(100).optional().describe("Categorical specs: the options a call's value must be one of."),
  })
  .describe("Which calls pass: their combined annotation value (mean of the annotators' numbers, the majority of booleans or options) satisfies this.");
export type RuleBody = z.infer<typeof ruleSchema>;

/** Where the calls come from: a queue's items, or the call log's filter over one project. */
const sourceFields = {
  queue_id: z.uuid().optional().describe("An annotation queue: its live items' calls, judged by the annotations given in the queue."),
  project: projectRefSchema.optional().describe("`team/project`: its calls matching `filter` (all of them without one), judged by any annotation on them."),
  filter: callFilter.optional(),
  accepted_only: z.boolean().default(false).describe("With `queue_id`: only the items a reviewer accepted (review_state accepted)."),
  limit: z.number().int().min(1).max(MAX_ITEMS_PER_ADD).default(MAX_ITEMS_PER_ADD).describe("At most this many calls (oldest first)."),
};

function oneSource(body: { queue_id?: string; project?: string; filter?: unknown; accepted_only?: boolean }, ctx: z.RefinementCtx) {
  if ((body.queue_id === undefined) === (body.project === undefined)) ctx.addIssue({ code: "custom", path: ["queue_id"], message: "send queue_id or project (one of them)" });
  else if (body.accepted_only && body.queue_id === undefined) ctx.addIssue({ code: "custom", path: ["accepted_only"], message: "reviews are of a queue's items: send queue_id" });
  else if (body.queue_id !== undefined && body.filter !== undefined) ctx.addIssue({ code: "custom", path: ["filter"], message: "a filter applies to a project's calls; a queue's are its items" });
}

export const sftDatasetBody = z
  .object({
    ...sourceFields,
    rule: ruleSchema.optional(),
    corrected_reply_spec: specName.optional().describe("A corrected_reply spec: a call's correction (when it differs from the model's reply) is trained instead of the model's reply, and such a call is used whatever the rule says."),
    filename: z.string().min(1).max(255).regex(/^[^/\\\0]+$/, "a file name without slashes").optional().describe("Default: judged-<queue or project>-<time>.jsonl."),
  })
  .superRefine((body, ctx) => {
    oneSource(body, ctx);
    if (!body.rule && !body.corrected_reply_spec) ctx.addIssue({ code: "custom", path: ["rule"], message: "send a rule, a corrected_reply_spec, or both" });
  });
export type SftDatasetBody = z.output<typeof sftDatasetBody>;

export const rlGroupsBody = z
  .object({
    ...sourceFields,
    reward_spec: rewardSpec,
  })
  .superRefine(oneSource);
export type RlGroupsBody = z.output<typeof rlGroupsBody>;

export const rlJobBody = z
  .object({
    ...sourceFields,
    reward_spec: rewardSpec,
    model_id: z.uuid(),
    experimental_config: experimentalConfigSchema.optional(),
  })
  .superRefine(oneSource);
export type RlJobBody = z.output<typeof rlJobBody>;

const count = z.number().int();

/** Why calls were left out, with how many and the first few ids. */
export const LEFT_OUT_REASONS = {
  not_annotated: "no annotation for the rule's (or reward's) spec",
  failed_rule: "the annotation does not pass the rule, and there is no corrected reply",
  tie: "the annotators are split evenly (no majority)",
  not_corrected: "no corrected reply that differs from the model's (and no rule to pass instead)",
  no_reply: "the call has no reply to train on (it failed) and no corrected reply",
  not_trainable: "its recorded messages or reply are not in a shape training reads",
  choices_not_scored: "the call has several choices and its annotation is on the call as a whole, not on each choice",
  single_trajectory: "its group has one trajectory: nothing to compare its reward with",
} as const;
export type LeftOutReason = keyof typeof LEFT_OUT_REASONS;

export const leftOutSchema = z.object({
  reason: z.enum(Object.keys(LEFT_OUT_REASONS) as [LeftOutReason, ...LeftOutReason[]]),
  message: z.string(),
  count,
  call_ids: z.array(z.string()).describe("The first 20 of them."),
});
export type LeftOut = z.infer<typeof leftOutSchema>;

export const resolvedRuleSchema = z.object({
  spec: z.string(),
  type: z.enum(["numeric", "boolean", "categorical"]),
  op: z.enum(RULE_OPS).optional(),
  value: z.union([z.number(), z.boolean()]).optional(),
  in: z.array(z.string()).optional(),
  text: z.string().describe("The rule as a person reads it: `score ≥ 4`, `helpful = true`, `tone in {calm, warm}`."),
});
export type ResolvedRule = z.infer<typeof resolvedRuleSchema>;

/** A job's (and a built file's) lineage: enough to find the queue, the rule and the feedback again. */
export const judgementSourceSchema = z
  .object({
    kind: z.enum(["sft_from_judgement", "rl_from_judgement"]),
    project: z.string().describe("`team/project` of the calls and their feedback."),
    queue: z.object({ id: z.string(), name: z.string() }).nullable(),
    accepted_only: z
      .boolean()
      .default(false)
      .describe("True when the calls were the queue's items a reviewer accepted only; false for all its live items, or a project's calls (and lineages recorded before this was kept)."),
    filter: z.record(z.string(), z.unknown()).nullable().describe("The call-log filter, when the calls came from one."),
    rule: resolvedRuleSchema.nullable(),
    corrected_reply_spec: z.string().nullable(),
    reward_spec: z.string().nullable(),
    feedback: z.object({
      count: count.describe("Annotation rows the data was built from (each annotator's latest per call and spec)."),
      types: z.array(z.string()).describe("Their feedback_type: list them with POST /feedback/query (queue_id for a queue), or on the Calls page filtered by type."),
      ids_sample: z.array(z.string()).describe("The first 100 of their ids."),
    }),
    counts: z.record(z.string(), count).describe("matched, used, corrected (SFT); groups, trajectories (RL)."),
    left_out: z.array(leftOutSchema),
    built_at: z.string(),
  })
  .describe("Where the training data came from, when Anneal built it from human judgement; null otherwise.");
export type JudgementSource = z.infer<typeof judgementSourceSchema>;

export const sftDatasetSchema = z.object({
  file: fileSchema.nullable().describe("The JSONL file (purpose fine-tune): pass its id as an SFT job's training_data_url; the job keeps `source` as its lineage. Null when no call was used (nothing is written)."),
  matched: count.describe("Calls the queue or filter gave."),
  used: count.describe("Examples written."),
  corrected: count.describe("Of those, examples whose reply is a corrected reply."),
  left_out: z.array(leftOutSchema),
  source: judgementSourceSchema,
});
export type SftDatasetDto = z.infer<typeof sftDatasetSchema>;

const trajectoryPreview = z.object({ call_id: z.string(), choice_index: z.number().int(), reward: z.number() });
export const groupPreviewSchema = z.object({
  kind: z.enum(["choices", "prompt"]).describe("`choices`: the n ≥ 2 choices of one call; `prompt`: calls with the same messages (and tools)."),
  prompt: z.string().describe("The last user message, cut at 200 characters."),
  trajectories: z.array(trajectoryPreview),
  reward_mean: z.number(),
  reward_spread: z.number().describe("max − min: 0 means the group teaches nothing (every advantage is 0)."),
});
export type GroupPreview = z.infer<typeof groupPreviewSchema>;

export const rlGroupsSchema = z.object({
  matched: count,
  groups: z.array(groupPreviewSchema).describe("The groups an RL job trains on (2+ trajectories each)."),
  singles: z.array(groupPreviewSchema).describe("Groups of one trajectory: left out, never trained."),
  warnings: z.array(z.string()),
  left_out: z.array(leftOutSchema),
  trajectories: count,
});
export type RlGroupsDto = z.infer<typeof rlGroupsSchema>;
