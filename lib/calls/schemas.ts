import { z } from "zod";
import { projectRefSchema } from "@/lib/auth/names";
import { instantSchema } from "@/lib/contract/dates";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";

// Recorded calls (every chat completion, docs/contract.md "Chat completions"): the call log the
// console browses and judges, what the SFT picker reads conversations from, and what scripts read
// back. A list item is a projection (previews, counts, feedback summary) that never carries the
// recorded response; the request's messages and the answer's message come with
// `include_messages=true`, and the whole recorded request and response only on GET one.

export const CALL_STATUSES = ["success", "error", "cancelled"] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

/** Characters of a preview; a longer text is cut there and ends with `…`. */
export const PREVIEW_CHARS = 200;

export const callParams = z.object({ call_id: z.string().uuid() });

const booleanParam = z.enum(["true", "false"]).transform((v) => v === "true");
const feedbackText = z.string().min(1).max(1024);

export const listCallsQuery = pageQuerySchema
  .extend({
    order: z.enum(["asc", "desc"]).default("desc").describe("By start time; newest first by default."),
    project: projectRefSchema.optional().describe("Only this project's calls: `<team>/<project>` (default: every project the caller may use)."),
    model: z.string().min(1).max(512).optional().describe("Only calls served by this model: an exact inference name, or a trained model's name without `:stepN` for all its checkpoints."),
    status: z.enum(CALL_STATUSES).optional(),
    start: instantSchema.optional().describe("Only calls that started at or after this instant (ISO 8601; `Z` or an offset, none means UTC)."),
    end: instantSchema.optional().describe("Only calls that started before this instant (exclusive)."),
    has_feedback: booleanParam
      .optional()
      .describe("`true`: only calls with at least one feedback row matching the feedback filters below (any row when none is given); `false`: only calls with no such row. A feedback filter alone means `true`."),
    feedback_type: feedbackText
      .optional()
      .describe("Feedback filter: the row's `feedback_type`, exactly (`wandb.reaction.1`, `wandb.note.1`, `wandb.annotation.quality`), or a prefix when it ends with `*` (`wandb.annotation.*`: any annotation)."),
    feedback_value: feedbackText
      .optional()
      .describe("Feedback filter: the row's value equals this: a reaction's `emoji` (`👍`), else the payload's `value` as text (`4`, `true`, `good`; a number also matches another spelling of it, `4.0`)."),
    feedback_min: z.coerce.number().finite().optional().describe("Feedback filter: the row's `value` is a number ≥ this."),
    feedback_max: z.coerce.number().finite().optional().describe("Feedback filter: the row's `value` is a number ≤ this."),
    include_messages: booleanParam.default(false).describe("Also return each call's request messages and its answer's message (`messages`, `output`)."),
  })
  .superRefine((query, ctx) => {
    if (query.start && query.end && query.end <= query.start) ctx.addIssue({ code: "custom", path: ["end"], message: "must be after start" });
    if (query.feedback_min !== undefined && query.feedback_max !== undefined && query.feedback_max < query.feedback_min)
      ctx.addIssue({ code: "custom", path: ["feedback_max"], message: "must be at least feedback_min" });
  });
export type ListCallsQuery = z.infer<typeof listCallsQuery>;

/** A call's annotation values in a list row: this many per spec, texts up to this long. */
export const SHOWN_VALUES = 5;
export const SHOWN_TEXT_LENGTH = 40;

const message = z.record(z.string(), z.unknown());
const count = z.number().int();

export const feedbackSummarySchema = z
  .object({
    count,
    by_type: z.record(z.string(), count).describe("Rows per `feedback_type`: `wandb.note.1`, `wandb.annotation.<spec>`, …"),
    reactions: z.record(z.string(), count).describe("Reactions (`wandb.reaction.1`) per emoji: `{\"👍\": 2, \"👎\": 1}`."),
    annotations: z
      .record(z.string(), z.array(z.union([z.number(), z.boolean(), z.string()])))
      .describe(
        `Annotation values per spec name (\`wandb.annotation.<spec>\`), newest first, at most ${SHOWN_VALUES}: numbers, booleans and texts of at most ${SHOWN_TEXT_LENGTH} characters (longer texts, corrected replies and preferences are counted in by_type only).`,
      ),
  })
  .describe("The feedback whose `svc_ref` is this call's ref.");
export type FeedbackSummary = z.infer<typeof feedbackSummarySchema>;

const callFields = {
  id: z.string().uuid(),
  object: z.literal("call"),
  /** `team/project` the call is attributed to. */
  project: z.string(),
  /** `svc:///team/project/call/<id>`, what feedback and annotation queues refer to. */
  ref: z.string(),
  /** The inference name as served (a trained model's `name:stepN`). */
  model: z.string(),
  base_model: z.string(),
  model_id: z.string().uuid().nullable().describe("The trained model that served it; null for a base model."),
  checkpoint_step: z.number().int().nullable(),
  status: z.enum(CALL_STATUSES),
  error: z.string().nullable(),
  created_at: z.string().describe("When the request started."),
  ended_at: z.string().nullable(),
  latency_ms: z.number().int().nullable(),
  usage: z.object({ prompt_tokens: count, completion_tokens: count, total_tokens: count }),
  feedback: feedbackSummarySchema,
};

/** The request's messages as sent. */
const messages = z.array(message);
/** The first choice's message (role assistant); null when the call produced none. */
const output = message.nullable();

export const callListItemSchema = z.object({
  ...callFields,
  message_count: count.describe("Messages in the request."),
  preview: z.object({
    input: z.string().nullable().describe(`The request's last user message (else its last message) as text, cut at ${PREVIEW_CHARS} characters.`),
    output: z.string().nullable().describe(`The answer's text (first choice), cut at ${PREVIEW_CHARS} characters; null when it has none.`),
  }),
  messages: messages.optional().describe("With `include_messages=true`."),
  output: output.optional().describe("With `include_messages=true`."),
});
export type CallListItem = z.infer<typeof callListItemSchema>;
export const callPage = pageSchema(callListItemSchema);

export const callDetailSchema = z.object({
  ...callFields,
  messages,
  output,
  /** The chat completions request as recorded (after validation and defaults). */
  request: z.record(z.string(), z.unknown()),
  /** The response as recorded (every choice), or null. */
  response: z.record(z.string(), z.unknown()).nullable(),
});
export type CallDetailDto = z.infer<typeof callDetailSchema>;
