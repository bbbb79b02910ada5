import type { z } from "zod";
import type { ValidationIssue } from "@/lib/contract/errors";

// zod issues → the spec's 422 `detail` entries: `loc` is where the value came from (body, query,
// path, header) then the field path, indices as decimal strings; `type` uses pydantic's names
// because the spec's clients (FastAPI-served peers) already know them.

function issueType(issue: z.core.$ZodIssue, input: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      return input === undefined ? "missing" : `${issue.expected}_type`;
    case "too_small":
      return issue.origin === "string" || issue.origin === "array" ? "too_short" : "greater_than_equal";
    case "too_big":
      return issue.origin === "string" || issue.origin === "array" ? "too_long" : "less_than_equal";
    case "invalid_value":
      return "enum";
    case "invalid_format":
      return issue.format === "regex" ? "string_pattern_mismatch" : `${issue.format}_format`;
    case "not_multiple_of":
      return "multiple_of";
    case "invalid_union":
      return "union_type";
    default:
      return "value_error";
  }
}

function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function toValidationIssues(source: string, error: z.ZodError, input: unknown): ValidationIssue[] {
  return error.issues.map((issue) => {
    const atValue = valueAt(input, issue.path);
    const type = issueType(issue, atValue);
    return {
      loc: [source, ...issue.path.map(String)],
      msg: type === "missing" ? "Field required" : issue.message,
      type,
    };
  });
}
