import { z } from "zod";
import { nameSchema, projectRefSchema } from "@/lib/auth/names";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";
import { specDefinitionSchema } from "@/lib/feedback/annotation-spec-schemas";

// Annotation queues (docs/annotation-queues.md): a project's calls for people to judge against
// the queue's annotation specs, by the users assigned to it. Requests, responses and stats.

export const MAX_QUEUE_SPECS = 20;
export const MAX_DISPLAY_FIELDS = 20;
export const MAX_ANNOTATORS = 1000;

export const queueParams = z.object({ queue_id: z.uuid() });

const queueSpecInput = z.object({
  name: nameSchema.describe("An annotation spec of the queue's project; the queue keeps its current version."),
  required: z.boolean().default(true).describe("Whether a submission must give a value for it."),
});

/** A dotted path into the call as the item read returns it (`request.temperature`, `output.content`, `messages.0.content`). */
export const displayFieldSchema = z.string().regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "must be a dotted path of keys and indices, e.g. request.metadata.task").max(256);

const settings = {
  description: z.string().max(4096).describe("What the queue is for (engineers read it)."),
  instructions: z.string().max(32_768).describe("What annotators are asked to do, shown beside the form."),
  specs: z
    .array(queueSpecInput)
    .min(1)
    .max(MAX_QUEUE_SPECS)
    .refine((specs) => new Set(specs.map((s) => s.name)).size === specs.length, "each spec at most once")
    .describe("The annotation specs asked for, in form order. Setting them pins each spec's current version."),
  display_fields: z.array(displayFieldSchema).max(MAX_DISPLAY_FIELDS).describe("Paths into the call shown first on the annotation screen."),
  annotations_per_item: z.number().int().min(1).max(100).describe("Completed annotations (by different people) an item needs to be done."),
  annotators: z
    .array(nameSchema)
    .max(MAX_ANNOTATORS)
    .refine((names) => new Set(names).size === names.length, "each user at most once")
    .describe("Usernames of the team's users assigned to the queue. Annotators reach only queues assigned to them; members and admins reach all of their team's."),
};

export const createQueueBody = z.object({
  project: projectRefSchema.describe("`<team>/<project>` whose calls the queue holds."),
  name: z.string().min(1).max(256),
  description: settings.description.default(""),
  instructions: settings.instructions.default(""),
  specs: settings.specs,
  display_fields: settings.display_fields.default([]),
  annotations_per_item: settings.annotations_per_item.default(1),
  annotators: settings.annotators.default([]),
});
export type CreateQueueBody = z.output<typeof createQueueBody>;

export const updateQueueBody = z.object({
  name: z.string().min(1).max(256).optional(),
  description: settings.description.optional(),
  instructions: settings.instructions.optional(),
  specs: settings.specs.optional(),
  display_fields: settings.display_fields.optional(),
  annotations_per_item: settings.annotations_per_item.optional(),
  annotators: settings.annotators.optional().describe("Replaces the assignment (usernames)."),
});
export type UpdateQueueBody = z.output<typeof updateQueueBody>;

export const listQueuesQuery = pageQuerySchema.extend({
  project: projectRefSchema.optional().describe("Only this project's queues (default: every queue the caller reaches)."),
});
export type ListQueuesQuery = z.infer<typeof listQueuesQuery>;

const count = z.number().int();

export const itemCountsSchema = z
  .object({
    total: count.describe("Items in the queue (removed ones not counted)."),
    completed: count.describe("Items with as many completed annotations as the queue needs."),
    in_progress: count.describe("Items not completed that are claimed right now or have some of their annotations."),
    skipped: count.describe("Items not completed that every assigned annotator skipped (with none assigned: that were skipped, with no annotation and no live claim)."),
    unstarted: count.describe("The rest."),
    rejected: count.describe("Items a reviewer sent back to their annotators, until one of them resubmits."),
    remaining: count.describe("total − completed − skipped: annotation work left (rejected items included)."),
    accepted: count.describe("Completed items a reviewer accepted: done."),
    awaiting_review: count.describe("Completed items no reviewer has decided on since their last submission."),
  })
  .describe("The queue's items by status (total = completed + in_progress + skipped + unstarted + rejected), and the completed ones by review (completed = accepted + awaiting_review). An item is done when accepted.");
export type ItemCounts = z.infer<typeof itemCountsSchema>;

export const queueSpecSchema = z.intersection(
  specDefinitionSchema,
  z.object({
    name: z.string(),
    ref: z.string().describe("The pinned version's svc:/// ref: the annotation_ref of annotations given in this queue."),
    version: z.number().int(),
    description: z.string(),
    required: z.boolean(),
  }),
);
export type QueueSpecDto = z.input<typeof queueSpecSchema>;

const userRef = z.object({ user_id: z.string(), username: z.string() });

export const queueSchema = z.object({
  object: z.literal("annotation_queue"),
  id: z.string(),
  project: z.string().describe("`team/project`"),
  name: z.string(),
  description: z.string(),
  instructions: z.string(),
  specs: z.array(queueSpecSchema),
  display_fields: z.array(z.string()),
  annotations_per_item: count,
  annotators: z.array(userRef),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  counts: itemCountsSchema,
});
export type QueueDto = z.input<typeof queueSchema>;
export const queuePage = pageSchema(queueSchema);

export const deletedQueueSchema = z.object({ id: z.string(), object: z.literal("annotation_queue"), deleted: z.literal(true) });

const rate = z.number().nullable();

export const queueStatsSchema = z.object({
  queue_id: z.string(),
  annotations_per_item: count,
  counts: itemCountsSchema,
  annotators: z
    .array(
      userRef.extend({
        assigned: z.boolean(),
        completed: count,
        skipped: count,
        in_progress: count.describe("Items this person holds a live claim on."),
      }),
    )
    .describe("Everyone assigned or with progress in the queue, by username."),
  agreement: z
    .array(
      z.object({
        spec: z.string(),
        type: z.string(),
        items: count.describe("Items with at least two annotations of this spec in the queue."),
        agreeing: count.nullable().describe("Of those, items whose annotations are all equal; null for text specs."),
        rate: rate.describe("agreeing / items; null when there are none, or for text specs."),
        alpha: z
          .number()
          .nullable()
          .describe("Krippendorff's α over every item's annotations (items with one annotation add nothing): 1 perfect, 0 chance, below 0 worse than chance; null for text specs, or when undefined (fewer than two annotations on any item, or no variation at all)."),
        alpha_metric: z.enum(["nominal", "interval"]).nullable().describe("interval for numeric specs; nominal for boolean, categorical and preferred-choice specs; null for text."),
      }),
    )
    .describe("Agreement per spec: exact agreement over items annotated more than once, and Krippendorff's α."),
});
export type QueueStats = z.infer<typeof queueStatsSchema>;
