import { z } from "zod";
import { nameSchema, projectRefSchema } from "@/lib/auth/names";
import { callDetailSchema, listCallsQuery, PREVIEW_CHARS } from "@/lib/calls/schemas";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";
import { MAX_NOTE_LENGTH } from "@/lib/feedback/kinds";

// A queue's items (spec §2.8, W&B Weave's AnnotationQueueItemSchema, plus what the annotator's
// screen needs), per-annotator progress (spec §4.6), claims, submissions and skips.

/** An annotator's own state on an item (spec §3); none is the absence of a row. */
export const ANNOTATION_STATES = ["in_progress", "completed", "skipped"] as const;
export type AnnotationState = (typeof ANNOTATION_STATES)[number];

/** An item's state in the queue as a whole (docs/annotation-queues.md); `rejected`: a reviewer sent
 *  it back to its annotators. */
export const ITEM_STATUSES = ["unstarted", "in_progress", "completed", "skipped", "rejected"] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** A reviewer's judgement of an item's annotations: pending until a reviewer decides, and again after any resubmission. */
export const REVIEW_STATES = ["pending", "accepted", "rejected"] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export const MAX_ITEMS_PER_ADD = 10_000;

export const itemParams = z.object({ queue_id: z.uuid(), item_id: z.uuid() });

export const itemSchema = z.object({
  id: z.string(),
  project_id: z.string().describe("`team/project`"),
  queue_id: z.string(),
  call_id: z.string(),
  call_started_at: z.string(),
  call_ended_at: z.string().nullable(),
  call_op_name: z.string(),
  call_trace_id: z.string(),
  display_fields: z.array(z.string()).describe("The queue's display fields."),
  created_at: z.string(),
  created_by: z.string().describe("Who added it (= added_by)."),
  updated_at: z.string(),
  added_by: z.string(),
  deleted_at: z.string().nullable(),
  position_in_queue: z.number().int().nullable().describe("1-based, in the list's order (items list), in order of addition (reading one item); null in progress responses."),
  annotation_state: z.enum(["unstarted", ...ANNOTATION_STATES]).describe("The state of the newest progress row across annotators; `unstarted` if there is none."),
  annotator_user_id: z.string().nullable().describe("The annotator of that row."),
  status: z.enum(ITEM_STATUSES).describe("The item in the queue as a whole: completed when it has the annotations the queue needs; in_progress while claimed or partly annotated; skipped when every assigned annotator skipped it; rejected when a reviewer sent it back to its annotators."),
  completed_annotations: z.number().int(),
  my_state: z.enum(ANNOTATION_STATES).nullable().describe("The caller's own progress; null if none."),
  claimed_by: z.string().nullable().describe("Who holds the live claim, if anyone."),
  claim_expires_at: z.string().nullable(),
  review: z
    .object({
      state: z.enum(REVIEW_STATES),
      note: z.string().nullable().describe("The last review's note (a rejection says what to change)."),
      reviewed_by: z.string().nullable(),
      reviewed_at: z.string().nullable(),
    })
    .describe("The last review of the item's annotations; state goes back to pending when an annotator resubmits."),
});
export type ItemDto = z.infer<typeof itemSchema>;

const listOf = <T extends z.ZodType>(item: T) =>
  z.preprocess((v) => (typeof v === "string" ? v.split(",") : v), z.array(item).min(1));

export const listItemsQuery = pageQuerySchema.extend({
  sort: z.enum(["position", "call_started_at"]).default("position").describe("`position`: the order calls were added in; `call_started_at`: when the calls were made."),
  status: listOf(z.enum(ITEM_STATUSES)).optional().describe("Only items with one of these statuses (comma-separated or repeated)."),
  my_state: listOf(z.enum(["none", ...ANNOTATION_STATES])).optional().describe("Only items where the caller's own state is one of these (`none`: no progress)."),
  review_state: listOf(z.enum(REVIEW_STATES)).optional().describe("Only items whose review is in one of these states."),
  annotator: nameSchema.optional().describe("Only items this user (a username) completed; with `spec`, the value must be theirs."),
  spec: nameSchema.optional().describe("Only items annotated with this spec of the queue (with `value`: with that value)."),
  value: z
    .string()
    .max(MAX_NOTE_LENGTH)
    .optional()
    .describe("With `spec`: the value, as JSON (`4`, `true`, `\"good\"`) or as plain text for a string (`good`); numbers compare as numbers."),
  search: z.string().trim().min(1).max(200).optional().describe("Only items whose prompt, answer, annotations or notes contain this text (case-insensitive)."),
});
export type ListItemsQuery = z.infer<typeof listItemsQuery>;

/** One person's work on an item, as the items list shows it to reviewers. */
export const itemAnnotationSchema = z.object({
  annotator_user_id: z.string(),
  annotator: z.string().describe("Their username (the id when the account is gone)."),
  state: z.enum(["completed", "skipped"]),
  values: z.record(z.string(), z.unknown()).describe("Their value per spec name in this queue (a corrected reply in full)."),
  note: z.string().nullable().describe("Their note, or the reason they skipped."),
  submitted_at: z.string(),
  time_spent_ms: z.number().int().nullable().describe("From their claim of the item to their first submission; null when they submitted without claiming it."),
});
export type ItemAnnotation = z.infer<typeof itemAnnotationSchema>;

export const listedItemSchema = itemSchema.extend({
  prompt_preview: z.string().nullable().describe(`The call's last user message (else its last message), cut at ${PREVIEW_CHARS} characters.`),
  answer_preview: z.string().nullable().describe(`The model's reply (first choice), cut at ${PREVIEW_CHARS} characters.`),
  answer: z.string().nullable().describe("The model's reply in full: what a corrected reply is compared with."),
  annotations: z
    .array(itemAnnotationSchema)
    .describe("Who completed or skipped the item, with their values: everyone's for members and admins, an annotator's own for annotators."),
});
export type ListedItemDto = z.infer<typeof listedItemSchema>;
export const itemPage = pageSchema(listedItemSchema);

export const exportQuery = z.object({
  format: z.enum(["csv", "jsonl"]).default("jsonl").describe("jsonl: one JSON record per line, values as JSON; csv: RFC 4180, a column per spec."),
});
export type ExportQuery = z.infer<typeof exportQuery>;

/** The call log's filters (GET /v1/calls) that select calls to add; other keys are ignored. */
const CALL_FILTER_KEYS = ["model", "status", "start", "end", "has_feedback", "feedback_type", "feedback_value", "feedback_min", "feedback_max"] as const;

// The filter is an object of the call log's query parameters, parsed by the call log's own schema
// (numbers and booleans may be sent as JSON values; they are read as the query string would be).
export const callFilter = z
  .preprocess(
    (value) =>
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? Object.fromEntries(
            CALL_FILTER_KEYS.flatMap((key) => {
              const v = (value as Record<string, unknown>)[key];
              return v === undefined ? [] : [[key, typeof v === "number" || typeof v === "boolean" ? String(v) : v]];
            }),
          )
        : value,
    listCallsQuery,
  )
  .describe(
    "The call log's filters (GET /v1/calls), as an object: model, status, start, end, has_feedback, feedback_type, feedback_value, feedback_min, feedback_max. " +
      "The queue's project's calls matching all of them are added, oldest first.",
  );

export const addItemsBody = z
  .object({
    call_ids: z.array(z.uuid()).min(1).max(MAX_ITEMS_PER_ADD).optional().describe("Calls of the queue's project, added in this order."),
    filter: callFilter.optional(),
    limit: z.number().int().min(1).max(MAX_ITEMS_PER_ADD).default(MAX_ITEMS_PER_ADD).describe("With `filter`: add at most this many calls."),
  })
  .refine((body) => (body.call_ids === undefined) !== (body.filter === undefined), { message: "send call_ids or filter (one of them)", path: ["call_ids"] });
export type AddItemsBody = z.output<typeof addItemsBody>;

export const addedItemsSchema = z.object({
  added: z.number().int().describe("Calls added (or added back after being removed)."),
  duplicates: z.number().int().describe("Calls already in the queue, skipped."),
});

export const removedItemSchema = z.object({ id: z.string(), object: z.literal("annotation_queue_item"), deleted: z.literal(true) });

export const progressBody = z.object({
  project_id: projectRefSchema.describe("`<team>/<project>`: the queue's project."),
  annotation_state: z.enum(ANNOTATION_STATES),
});
export const itemResponseSchema = z.object({ item: itemSchema });
export const nextItemSchema = z.object({ item: itemSchema.nullable().describe("The claimed item; null when nothing is left for the caller.") });

export const submitBody = z.object({
  values: z.record(z.string(), z.unknown()).describe("A value per spec name of the queue (every required spec; optional ones may be left out)."),
  note: z.string().min(1).max(MAX_NOTE_LENGTH).optional().describe("Stored as a wandb.note.1 feedback row on the call."),
});
export type SubmitBody = z.output<typeof submitBody>;

export const reviewBody = z
  .object({
    review_state: z.enum(["accepted", "rejected"]).describe("accepted: the annotations stand (the item is done); rejected: the item returns to the annotators who wrote them."),
    note: z.string().trim().min(1).max(MAX_NOTE_LENGTH).optional().describe("What the annotators read; required to reject."),
  })
  .refine((body) => body.review_state !== "rejected" || body.note !== undefined, { message: "a rejection needs a note: the annotators read it", path: ["note"] });
export type ReviewBody = z.output<typeof reviewBody>;

export const skipBody = z.object({
  reason: z.string().min(1).max(MAX_NOTE_LENGTH).optional().describe("Why: stored as a wandb.note.1 feedback row on the call."),
});

const writtenRow = z.object({ id: z.string(), feedback_type: z.string(), payload: z.record(z.string(), z.unknown()) });
export const submittedSchema = z.object({ item: itemSchema, feedback: z.array(writtenRow).describe("The caller's feedback rows on this item, as now stored.") });

export const itemWithCallSchema = z.object({
  item: itemSchema,
  call: callDetailSchema,
  display: z.array(z.object({ path: z.string(), value: z.unknown() })).describe("The queue's display fields resolved against `call` (null where a path names nothing)."),
  mine: z
    .object({ values: z.record(z.string(), z.unknown()), note: z.string().nullable() })
    .describe("The caller's annotations of this item in this queue (a value per spec name) and note, to edit a submitted item."),
});
export type ItemWithCall = z.infer<typeof itemWithCallSchema>;
