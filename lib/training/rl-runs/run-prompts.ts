// A run's prompts, fixed when it is created: inline, an uploaded JSONL file of {messages, reference?},
// recorded calls, or an annotation queue's calls. A call's prompt is its messages up to its last
// user turn (what the model answered), its reference the newest corrected reply given on it (none
// where that is the model's reply: lib/feedback/corrections.ts).
import type { Principal } from "@/lib/auth/principal";
import { teamIdsAllowing } from "@/lib/auth/team-access";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { invalid, notFound } from "@/lib/contract/errors";
import { JsonlError, jsonlErrorAt, parseJsonl } from "@/lib/contract/jsonl";
import { getDatabase } from "@/lib/db/client";
import { isCorrection } from "@/lib/feedback/corrections";
import { readFileForCaller } from "@/lib/files/files";
import { resolveQueue } from "@/lib/queues/queue-access";
import { MAX_RUN_PROMPTS } from "./limits";
import { runPromptSchema, type PromptSource, type RunPrompt } from "./schemas";

const AT = ["body", "prompts"];

export async function loadRunPrompts(principal: Principal, source: PromptSource): Promise<RunPrompt[]> {
  switch (source.source) {
    case "inline":
      return source.items;
    case "file":
      return parsePromptsJsonl((await readFileForCaller(principal, source.file_id)).toString("utf8"), source.file_id);
    case "calls":
      return callPrompts(source.call_ids, await teamIdsAllowing(principal, "use"), true);
    case "queue": {
      const { queue } = await resolveQueue(principal, source.queue_id, "use");
      const items = await getDatabase().sql.query<{ callId: string }>(
        `SELECT "callId" FROM "AnnotationQueueItem" WHERE "queueId" = $1::uuid AND "deletedAt" IS NULL ORDER BY seq LIMIT ${MAX_RUN_PROMPTS}`,
        [queue.id],
      );
      if (!items.length) throw invalid([...AT, "queue_id"], "the queue has no items");
      const teams = await teamIdsAllowing(principal, "use");
      return callPrompts(items.map((i) => i.callId), teams, false);
    }
  }
}

export function parsePromptsJsonl(text: string, fileId: string): RunPrompt[] {
  try {
    return parseJsonl(text, { schema: runPromptSchema, line: '{"messages": [...], "reference"?: "..."}', items: "prompts", max: MAX_RUN_PROMPTS });
  } catch (error) {
    if (error instanceof JsonlError) throw invalid([...AT, "file_id"], jsonlErrorAt(`file ${fileId}`, error));
    throw error;
  }
}

interface CallRow {
  id: string;
  messages: unknown;
  reference: string | null;
  reply: string | null;
}

const CALL_REF = `'svc:///' || t.name || '/' || p.name || '/call/' || c.id::text`;
const SPEC_REF = `'svc:///' || t.name || '/' || p.name || '/object/' || s.name || ':' || s.digest`;

/** Prompts of calls in the caller's teams, in the order asked. `strict`: an id that names no such
 *  call is a 404 (a queue's items were already checked). */
async function callPrompts(callIds: readonly string[], teamIds: readonly string[], strict: boolean): Promise<RunPrompt[]> {
  await flushCalls(); // calls are recorded write-behind
  const rows = await getDatabase().sql.query<CallRow>(
    `SELECT c.id, c.inputs->'messages' AS messages, c.output #>> '{choices,0,message,content}' AS reply,
            (SELECT f.payload->>'value' FROM "Feedback" f
               JOIN "AnnotationSpec" s ON s."projectId" = c."projectId" AND s.type = 'corrected_reply' AND f."annotationRef" = ${SPEC_REF}
              WHERE f."projectId" = c."projectId" AND f."svcRef" = ${CALL_REF}
              ORDER BY f."createdAt" DESC LIMIT 1) AS reference
       FROM "Call" c JOIN "Project" p ON p.id = c."projectId" JOIN "Team" t ON t.id = p."teamId"
      WHERE c.id = ANY($1::uuid[]) AND p."teamId" = ANY($2::uuid[])`,
    [callIds, teamIds],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const prompts: RunPrompt[] = [];
  for (const id of callIds) {
    const row = byId.get(id);
    if (!row) {
      if (strict) throw notFound(`Call '${id}' not found.`);
      continue;
    }
    const prompt = promptOfCall(row);
    if (prompt) prompts.push(prompt);
  }
  if (!prompts.length) throw invalid(AT, "none of the calls has a user message to use as a prompt");
  return prompts;
}

/** The call's messages up to its last user turn; null when it has none. */
function promptOfCall(row: CallRow): RunPrompt | null {
  const messages = runPromptSchema.shape.messages.safeParse(row.messages);
  if (!messages.success) return null;
  const lastUser = messages.data.findLastIndex((m) => m.role === "user");
  if (lastUser < 0) return null;
  return { messages: messages.data.slice(0, lastUser + 1), ...(isCorrection(row.reference, row.reply) ? { reference: row.reference } : {}) };
}
