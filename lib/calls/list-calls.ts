// GET /v1/calls: the call log, a cursor page newest first (keyset on startedAt, id) over the
// projects the caller may use. Each item is a projection computed in SQL — previews cut from the
// request's last user message and the answer's text, the message count — so a page never reads
// a recorded response (its logprobs are most of a call's bytes) into the server; messages only
// when asked. Feedback summaries come from one grouped query per page.
// Calls are recorded write-behind; a read first writes what this process still holds.
// Annotators (no "use") are 403 for a project of theirs; they reach calls through queues.
import type { Principal } from "@/lib/auth/principal";
import { resolveProject } from "@/lib/auth/projects";
import { teamIdsAllowing } from "@/lib/auth/team-access";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { isJsonObject, type JsonObject } from "@/lib/call-log/json-object";
import { isUuid, toPage, unknownCursor, type Page } from "@/lib/contract/pagination";
import { getDatabase } from "@/lib/db/client";
import { callFieldsDto, callRef, type CallFacts } from "./call-dto";
import { feedbackCondition } from "./feedback-filter";
import { summarizeFeedback } from "./feedback-summary";
import { PREVIEW_CHARS, type CallListItem, type ListCallsQuery } from "./schemas";
import { SqlParams } from "./sql-params";

interface ListedRow extends CallFacts {
  projectId: string;
  messageCount: number;
  inputText: string | null;
  outputText: string | null;
  messages?: unknown;
  outputMessage?: unknown;
}

const REF_SQL = `'svc:///' || t.name || '/' || p.name || '/call/' || c.id::text`;
/** Calls `c` with their project `p` and team `t`: what the filter conditions below are written over. */
export const CALLS_FROM = `"Call" c JOIN "Project" p ON p.id = c."projectId" JOIN "Team" t ON t.id = p."teamId"`;

/** The request's messages, or none when the recorded request has no list of them. */
const MESSAGES = `(CASE WHEN jsonb_typeof(c.inputs->'messages') = 'array' THEN c.inputs->'messages' ELSE '[]'::jsonb END)`;
/** A message's content as text: a string, or the text parts of a list of parts. */
const CONTENT_TEXT = `CASE jsonb_typeof(m->'content')
    WHEN 'string' THEN m->>'content'
    WHEN 'array' THEN (SELECT string_agg(part->>'text', '' ORDER BY k) FROM jsonb_array_elements(m->'content') WITH ORDINALITY AS q(part, k)
                        WHERE jsonb_typeof(part) = 'object' AND part->>'type' = 'text')
  END`;
/** The last user message's text, else the last message's. */
export const INPUT_TEXT = `(SELECT ${CONTENT_TEXT} FROM jsonb_array_elements(${MESSAGES}) WITH ORDINALITY AS e(m, i)
   ORDER BY (m->>'role' = 'user') IS TRUE DESC, i DESC LIMIT 1)`;
export const OUTPUT_TEXT = `(c.output #>> '{choices,0,message,content}')`;
export const cut = (column: string) => `CASE WHEN char_length(${column}) > ${PREVIEW_CHARS} THEN left(${column}, ${PREVIEW_CHARS}) || '…' ELSE ${column} END`;

/** Which projects a listing covers: one named project (404 unknown, 403 an annotator's team), or
 *  every project of the teams where the caller may use things. */
async function scopeCondition(principal: Principal, query: ListCallsQuery): Promise<(params: SqlParams) => string> {
  if (query.project) {
    const { project } = await resolveProject(principal, query.project, "use", { createIfMissing: false });
    return (params) => `c."projectId" = ${params.add(project.id)}::uuid`;
  }
  const teamIds = await teamIdsAllowing(principal, "use");
  return (params) => `p."teamId" = ANY(${params.add(teamIds)}::uuid[])`;
}

/** A trained model's name without `:stepN` matches every checkpoint of it. */
function modelCondition(model: string, params: SqlParams): string {
  const name = params.add(model);
  return /:step\d+$/.test(model) ? `c.model = ${name}` : `(c.model = ${name} OR starts_with(c.model, ${name} || ':step'))`;
}

/** The `after` call (within the caller's scope, whatever the filters) as a keyset condition. */
async function cursorCondition(after: string, scope: (params: SqlParams) => string, order: "asc" | "desc", params: SqlParams): Promise<string> {
  const lookup = new SqlParams();
  const found = isUuid(after)
    ? await getDatabase().sql.query<{ startedAt: Date }>(`SELECT c."startedAt" FROM ${CALLS_FROM} WHERE ${scope(lookup)} AND c.id = ${lookup.add(after)}::uuid`, lookup.values)
    : [];
  if (found.length === 0) throw unknownCursor(after);
  return `(c."startedAt", c.id) ${order === "asc" ? ">" : "<"} (${params.add(found[0].startedAt)}::timestamptz, ${params.add(after)}::uuid)`;
}

export type CallFilters = Pick<ListCallsQuery, "model" | "status" | "start" | "end" | "has_feedback" | "feedback_type" | "feedback_value" | "feedback_min" | "feedback_max">;

/** The call log's filters as SQL conditions over CALLS_FROM (annotation queues add the calls a filter matches). */
export function callFilterConditions(query: CallFilters, params: SqlParams): string[] {
  const conditions: string[] = [];
  if (query.model) conditions.push(modelCondition(query.model, params));
  if (query.status) conditions.push(`c.status = ${params.add(query.status)}`);
  if (query.start) conditions.push(`c."startedAt" >= ${params.add(query.start)}::timestamptz`);
  if (query.end) conditions.push(`c."startedAt" < ${params.add(query.end)}::timestamptz`);
  const feedback = feedbackCondition(query, params, { projectId: `c."projectId"`, refSql: REF_SQL });
  if (feedback) conditions.push(feedback);
  return conditions;
}

export async function listCalls(principal: Principal, query: ListCallsQuery): Promise<Page<CallListItem>> {
  await flushCalls();
  const scope = await scopeCondition(principal, query);
  const params = new SqlParams();
  const conditions = [scope(params), ...callFilterConditions(query, params)];
  if (query.after) conditions.push(await cursorCondition(query.after, scope, query.order, params));
  const order = query.order === "asc" ? "ASC" : "DESC";
  // The page's ids first, then the projection for those rows only.
  const sql = `
    WITH page AS (
      SELECT c.id FROM ${CALLS_FROM}
       WHERE ${conditions.join("\n         AND ")}
       ORDER BY c."startedAt" ${order}, c.id ${order}
       LIMIT ${params.add(query.limit + 1)}
    )
    SELECT c.id, c."projectId", t.name AS "teamName", p.name AS "projectName", c.model, c."baseModel", c."modelId", c."checkpointStep",
           c.status, c.error, c."startedAt", c."endedAt", c."latencyMs", c."promptTokens", c."completionTokens",
           jsonb_array_length(${MESSAGES}) AS "messageCount", ${cut("x.input")} AS "inputText", ${cut("x.output")} AS "outputText"
           ${query.include_messages ? `, ${MESSAGES} AS messages, c.output #> '{choices,0,message}' AS "outputMessage"` : ""}
      FROM page JOIN ${CALLS_FROM} ON c.id = page.id
      CROSS JOIN LATERAL (SELECT ${INPUT_TEXT} AS input, ${OUTPUT_TEXT} AS output) x
     ORDER BY c."startedAt" ${order}, c.id ${order}`;
  const rows = await getDatabase().sql.query<ListedRow>(sql, params.values);
  const page = toPage(rows, query.limit);
  const refs = page.data.map((row) => ({ projectId: row.projectId, ref: callRef(row.teamName, row.projectName, row.id) }));
  const summaries = await summarizeFeedback(refs);
  return {
    ...page,
    data: page.data.map((row, i) => {
      const item: CallListItem = {
        ...callFieldsDto(row, summaries.get(refs[i].ref)!),
        message_count: row.messageCount,
        preview: { input: row.inputText, output: row.outputText },
      };
      if (query.include_messages) {
        item.messages = Array.isArray(row.messages) ? row.messages.filter(isJsonObject) : [];
        item.output = isJsonObject(row.outputMessage) ? (row.outputMessage as JsonObject) : null;
      }
      return item;
    }),
  };
}
