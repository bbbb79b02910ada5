import { z } from "zod";
import { nameSchema } from "@/lib/auth/names";
import { pageQuerySchema, pageSchema } from "@/lib/contract/pagination";

// Annotation specs (docs/feedback.md): what an annotation's `value` must be. A spec is a project's
// named resource with a type and the type's settings; `wandb.annotation.<name>` feedback carries
// `{value}` valid for it and `annotation_ref` = the spec's `svc:///<team>/<project>/object/<name>:<digest>`.

export const SPEC_TYPES = ["numeric", "boolean", "categorical", "text", "corrected_reply", "preferred_choice"] as const;
export type SpecType = (typeof SPEC_TYPES)[number];

export const MAX_TEXT_LENGTH = 500_000;

const numeric = z
  .object({
    type: z.literal("numeric"),
    min: z.number().optional().describe("Smallest value allowed (inclusive)."),
    max: z.number().optional().describe("Largest value allowed (inclusive)."),
    integer: z.boolean().default(false).describe("Only whole numbers."),
  })
  .refine((s) => s.min === undefined || s.max === undefined || s.min <= s.max, { message: "min must not exceed max", path: ["max"] });

const boolean = z.object({ type: z.literal("boolean") });

const categorical = z.object({
  type: z.literal("categorical"),
  options: z
    .array(z.string().min(1).max(256))
    .min(1)
    .max(100)
    .refine((options) => new Set(options).size === options.length, "options must be distinct")
    .describe("The values an annotation may take (one of them)."),
});

const text = z.object({
  type: z.literal("text"),
  max_length: z.number().int().min(1).max(MAX_TEXT_LENGTH).default(1024).describe("Longest text allowed, in characters."),
});

const correctedReply = z.object({
  type: z.literal("corrected_reply"),
  max_length: z.number().int().min(1).max(MAX_TEXT_LENGTH).default(32_768).describe("Longest reply allowed, in characters."),
});

// A pairwise preference between two answers of one call made with n >= 2: the value is
// `{preferred, over}`, two different indexes into the call's `choices` (checked against the call).
const preferredChoice = z.object({
  type: z
    .literal("preferred_choice")
    .describe(
      "For calls made with n >= 2: the value is {preferred, over}, two different 0-based indexes into the call's choices (preferred is the better answer). It is checked against the recorded call: an index beyond its choices is a 422, a call with fewer than two choices a 400, a call not recorded a 404.",
    ),
});

const DEFINITIONS = [numeric, boolean, categorical, text, correctedReply, preferredChoice] as const;

/** A spec's type and settings, as validated: what its digest covers (with the description). */
export const specDefinitionSchema = z.discriminatedUnion("type", DEFINITIONS);
export type SpecDefinition = z.output<typeof specDefinitionSchema>;

const description = z.string().max(4096).default("").describe("What annotators are asked to judge.");

const withFields = <S extends Record<string, z.ZodType>>(fields: S) =>
  z.discriminatedUnion("type", [
    numeric.extend(fields), boolean.extend(fields), categorical.extend(fields), text.extend(fields), correctedReply.extend(fields), preferredChoice.extend(fields),
  ]);

export const specParams = z.object({ team: nameSchema, project: nameSchema });
export const specNameParams = specParams.extend({ name: nameSchema });

export const createSpecBody = withFields({ name: nameSchema.describe("Unique among the project's live specs; part of its ref."), description });
export type CreateSpecBody = z.output<typeof createSpecBody>;

export const updateSpecBody = withFields({ description });
export type UpdateSpecBody = z.output<typeof updateSpecBody>;

export const listSpecsQuery = pageQuerySchema.extend({
  after: nameSchema.optional().describe("Exclusive cursor: the name of the last spec of the previous page."),
});

export const annotationSpecSchema = withFields({
  object: z.literal("annotation_spec"),
  name: z.string(),
  description: z.string(),
  /** `team/project` */
  project: z.string(),
  ref: z.string().describe("svc:///<team>/<project>/object/<name>:<digest>: the annotation_ref of feedback given against this version."),
  digest: z.string(),
  version: z.number().int().describe("1 for the first definition, +1 for each update that changed it."),
  created_at: z.string().describe("When the spec was first created."),
  updated_at: z.string().describe("When this version was written."),
});
export type AnnotationSpecDto = z.input<typeof annotationSpecSchema>;

// Pages of specs are keyed by name (a spec's identity; its versions share it).
export const annotationSpecPage = pageSchema(annotationSpecSchema);

export const deletedSpecSchema = z.object({ deleted: z.literal(true), name: z.string() });
