// The call log's feedback filters as one SQL condition on a call `c` whose ref is `refSql`:
// (NOT) EXISTS a feedback row on the call that matches the type and value filters. A row's value
// is a reaction's `emoji`, else its payload's `value` (annotations, and clients' own types).
import { REACTION_TYPE } from "@/lib/feedback/kinds";
import type { ListCallsQuery } from "./schemas";
import type { SqlParams } from "./sql-params";

const VALUE = `(CASE WHEN f."feedbackType" = '${REACTION_TYPE}' THEN f.payload->'emoji' ELSE f.payload->'value' END)`;
/** The value as a number when it is a JSON number (CASE: the cast never sees anything else). */
const NUMBER = `(CASE WHEN jsonb_typeof(${VALUE}) = 'number' THEN (${VALUE} #>> '{}')::numeric END)`;
/** A decimal number as JSON writes one (what `feedback_value` also matches numerically). */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

type FeedbackFilters = Pick<ListCallsQuery, "has_feedback" | "feedback_type" | "feedback_value" | "feedback_min" | "feedback_max">;

/** The condition, or null when the query filters nothing by feedback. */
export function feedbackCondition(query: FeedbackFilters, params: SqlParams, call: { projectId: string; refSql: string }): string | null {
  const matches: string[] = [];
  const type = query.feedback_type;
  if (type !== undefined) {
    matches.push(type.endsWith("*") ? `starts_with(f."feedbackType", ${params.add(type.slice(0, -1))})` : `f."feedbackType" = ${params.add(type)}`);
  }
  const value = query.feedback_value;
  if (value !== undefined) {
    const equal = `${VALUE} #>> '{}' = ${params.add(value)}`;
    matches.push(JSON_NUMBER.test(value) ? `(${equal} OR ${NUMBER} = ${params.add(value)}::numeric)` : equal);
  }
  if (query.feedback_min !== undefined) matches.push(`${NUMBER} >= ${params.add(String(query.feedback_min))}::numeric`);
  if (query.feedback_max !== undefined) matches.push(`${NUMBER} <= ${params.add(String(query.feedback_max))}::numeric`);
  if (query.has_feedback === undefined && matches.length === 0) return null;
  const exists = `EXISTS (SELECT 1 FROM "Feedback" f WHERE f."projectId" = ${call.projectId} AND f."svcRef" = ${call.refSql}${matches.map((m) => ` AND ${m}`).join("")})`;
  return query.has_feedback === false ? `NOT ${exists}` : exists;
}
