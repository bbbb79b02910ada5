import { z } from "zod";
import { compileJsonSchema, jsonSchemaValid } from "./json-schema-valid";
import { lengthInRange } from "./length-in-range";
import { exactMatch, numericMatch } from "./match-reference";
import { regexMatch } from "./regex-match";

// The built-in reward checkers a run (or a job's validation) names: what each takes, whether it
// needs a reference answer, and the scorer it compiles to. A scorer gives 1 (passes) or 0.

const MAX_PATTERN_CHARS = 1_000;

export const checkerSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("exact_match"),
    case_sensitive: z.boolean().default(true),
  }).describe("The reply (trimmed) equals the prompt's reference."),
  z.object({
    type: z.literal("numeric_match"),
    tolerance: z.number().finite().min(0).default(0),
  }).describe("The last number in the reply equals the last number in the reference, within tolerance."),
  z.object({
    type: z.literal("regex"),
    pattern: z.string().min(1).max(MAX_PATTERN_CHARS),
    flags: z.string().regex(/^[imsu]*$/, "flags may be i, m, s and u").default(""),
  }).describe("The reply matches the regular expression (JavaScript syntax)."),
  z.object({
    type: z.literal("json_schema"),
    schema: z.record(z.string(), z.unknown()),
  }).describe("The reply is JSON valid against the JSON schema (a ```json fence around it is allowed)."),
  z.object({
    type: z.literal("length"),
    min: z.number().int().min(0).default(0),
    max: z.number().int().min(0),
  }).describe("The reply's length in characters is within [min, max]."),
]);
export type CheckerConfig = z.output<typeof checkerSchema>;

export const CHECKER_TYPES = ["exact_match", "numeric_match", "regex", "json_schema", "length"] as const satisfies readonly CheckerConfig["type"][];

export type Scorer = (reply: string, reference: string | undefined) => number;

export function checkerNeedsReference(checker: CheckerConfig): boolean {
  return checker.type === "exact_match" || checker.type === "numeric_match";
}

/** Problems with a checker that its shape cannot tell (a pattern that does not compile, an
 *  unreadable schema, min > max): a message for the caller's 422, or null. */
export function checkerProblem(checker: CheckerConfig): { field: string; message: string } | null {
  try {
    compileChecker(checker);
  } catch (error) {
    const field = checker.type === "regex" ? "pattern" : checker.type === "json_schema" ? "schema" : "max";
    return { field, message: (error as Error).message };
  }
  return null;
}

/** The checker as a scorer. A reference checker scores 0 when the prompt has no reference. */
export function compileChecker(checker: CheckerConfig): Scorer {
  switch (checker.type) {
    case "exact_match":
      return (reply, reference) => (reference === undefined ? 0 : exactMatch(reply, reference, { caseSensitive: checker.case_sensitive }));
    case "numeric_match":
      return (reply, reference) => (reference === undefined ? 0 : numericMatch(reply, reference, { tolerance: checker.tolerance }));
    case "regex": {
      const pattern = new RegExp(checker.pattern, checker.flags);
      return (reply) => regexMatch(reply, pattern);
    }
    case "json_schema": {
      const validate = compileJsonSchema(checker.schema);
      return (reply) => jsonSchemaValid(reply, validate);
    }
    case "length":
      if (checker.min > checker.max) throw new Error(`max (${checker.max}) must be at least min (${checker.min})`);
      return (reply) => lengthInRange(reply, checker);
  }
}
