import { z } from "zod";
import { projectRefSchema } from "@/lib/auth/names";
import { MAX_REF_LENGTH } from "./refs";

// Feedback requests and responses, in W&B Weave's trace-server shapes (FeedbackCreateReq,
// FeedbackReplaceReq, FeedbackQueryReq, FeedbackPurgeReq) so Weave's clients work unchanged.
// docs/feedback.md has the kinds, the ref forms and the query language.

const ref = z.string().min(1).max(MAX_REF_LENGTH);
const optionalRef = (what: string) => ref.optional().describe(what);

const feedbackFields = {
  project_id: projectRefSchema.describe("`<team>/<project>`."),
  svc_ref: ref.optional().describe("What the feedback is about: `svc:///<team>/<project>/(object|op|call)/...` of this project (or `weave:///...`; stored as `svc:///`). Required unless `weave_ref` is sent."),
  weave_ref: ref.optional().describe("W&B Weave's name for `svc_ref`; either may be sent."),
  feedback_type: z
    .string()
    .min(1)
    .max(256)
    .describe("`wandb.reaction.1`, `wandb.note.1`, `wandb.annotation.<spec name>`, `wandb.runnable.<name>`, or a type of your own (other `wandb.` types are reserved)."),
  payload: z.record(z.string(), z.unknown()).describe("A JSON object, at most 1 MiB as JSON (413 beyond); its rules depend on `feedback_type`."),
  id: z.uuid().optional().describe("The new row's id (default: a new UUIDv7)."),
  creator: z.string().max(1024).optional().describe("Free text, e.g. a scorer's name."),
  annotation_ref: optionalRef("The annotation spec's `svc:///<team>/<project>/object/<name>:<digest>` (annotation feedback only, required there)."),
  runnable_ref: optionalRef("The op or object that produced the feedback (`wandb.runnable.<name>`: required, named `<name>`)."),
  call_ref: optionalRef("The call that produced the feedback: `svc:///<team>/<project>/call/<id>`."),
  trigger_ref: optionalRef("The object (e.g. a monitor) that triggered it: `svc:///<team>/<project>/object/<name>:<digest>`."),
  queue_id: z.uuid().optional().describe("The annotation queue it came from; must name a live queue of the project."),
  wb_user_id: z.unknown().optional().describe("Ignored: the server sets it to the authenticated user."),
};

export const createFeedbackBody = z.object(feedbackFields);
export type CreateFeedbackBody = z.output<typeof createFeedbackBody>;

export const replaceFeedbackBody = z.object({
  ...feedbackFields,
  feedback_id: z.uuid().describe("The row to replace (deleted in the same transaction that inserts the new one; an unknown id just creates)."),
});
export type ReplaceFeedbackBody = z.output<typeof replaceFeedbackBody>;

export const writtenFeedbackSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  wb_user_id: z.string(),
  payload: z.record(z.string(), z.unknown()).describe("As stored: a reaction's gains `alias`, `detoned` and `detoned_alias`."),
});
export type WrittenFeedback = z.infer<typeof writtenFeedbackSchema>;

// The query language is checked by its compiler (query-language.ts): an unknown operator or field
// is a 400 that names it, a malformed operation a 422 at its place.
const expression = z.record(z.string(), z.unknown());
export const feedbackQueryExpression = z
  .object({ $expr: expression })
  .describe(
    "`{$expr}` in W&B Weave's query language: `$and`, `$or`, `$not`, `$eq`, `$gt`, `$gte`, `$in`, `$contains` over " +
      "`$getField` (a feedback field, or `payload.<path>`), `$literal` and `$convert` (to double, int, bool, string, exists). " +
      "Any other operator is a 400 naming it.",
  );

export const MAX_QUERY_ROWS = 10_000;

export const queryFeedbackBody = z.object({
  project_id: projectRefSchema,
  fields: z.array(z.string().min(1).max(512)).max(64).optional().describe("The fields of each result (default: all); `payload.<path>` gives that value."),
  query: feedbackQueryExpression.optional(),
  sort_by: z
    .array(z.object({ field: z.string().min(1).max(512), direction: z.string().toLowerCase().pipe(z.enum(["asc", "desc"])) }))
    .max(16)
    .optional()
    .describe("Default: created_at ascending; ties are broken by id."),
  limit: z.number().int().min(0).max(MAX_QUERY_ROWS).optional().describe(`At most ${MAX_QUERY_ROWS}; without it, a query matching more rows is a 400.`),
  offset: z.number().int().min(0).optional(),
});
export type QueryFeedbackBody = z.output<typeof queryFeedbackBody>;

export const feedbackQueryResult = z.object({ result: z.array(z.record(z.string(), z.unknown())) });

export const purgeFeedbackBody = z.object({
  project_id: projectRefSchema,
  query: feedbackQueryExpression.describe(
    "Selects the rows by id, as W&B Weave's purge: `{$eq: [{$getField: \"id\"}, {$literal: \"<id>\"}]}`, an `$or` of those, or `$in` over `id`.",
  ),
});
export type PurgeFeedbackBody = z.output<typeof purgeFeedbackBody>;
