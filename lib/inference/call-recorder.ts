import { toStoredOutput } from "@/lib/calls/stored-output";
import { getDatabase } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { log } from "@/lib/log";

// Every completion is recorded as a Call, write-behind: the response never waits for the insert.
// Rows are batched and flushed on a timer (and at shutdown, and before calls are read): one SQL
// statement inserts the calls and adds them to the per-day usage rollups. It is plain SQL over one
// JSON parameter, not Prisma: with the embedded database every query runs on the event loop that
// streams tokens, and Prisma's query compilation cost more than the insert itself. A statement's
// fixed cost there (parse, plan, commit: ~1 ms) is shared by a second's calls. Responses are
// stored in the form of stored-output.ts (logprobs' bytes left out where they are their token's
// UTF-8).

const FLUSH_INTERVAL_MS = 1000;
const MAX_BATCH = 200;

/** One recorded call (a row of "Call"). */
export interface CallRecord {
  id: string;
  projectId: string;
  userId?: string;
  apiKeyId?: string;
  traceId: string;
  opName: string;
  requestId: string;
  model: string;
  baseModel: string;
  modelId?: string;
  checkpointStep?: number;
  inputs: unknown;
  output?: unknown;
  promptTokens: number;
  completionTokens: number;
  status: "success" | "error" | "cancelled";
  error?: string;
  startedAt: Date;
  endedAt: Date;
  latencyMs: number;
}

const key = Symbol.for("anneal.callBuffer");
interface CallBuffer {
  rows: CallRecord[];
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
}
const buffer: CallBuffer = ((globalThis as { [key]?: CallBuffer })[key] ??= { rows: [] });

/** JSON text as PostgreSQL's jsonb stores it: NUL cannot be stored in text, so it becomes U+FFFD. */
const storableJson = (value: unknown): string => JSON.stringify(value ?? null).replace(/\\u0000/g, "\\ufffd");

/** A value as PostgreSQL's jsonb stores it (see storableJson), for values written through Prisma. */
export function toStorableJson(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(storableJson(value)) as Prisma.InputJsonValue;
}

export function recordCall(row: CallRecord): void {
  buffer.rows.push(row);
  if (buffer.rows.length >= MAX_BATCH) void flushCalls();
  else buffer.timer ??= setTimeout(() => void flushCalls(), FLUSH_INTERVAL_MS);
}

const COLUMNS = `
  id uuid, "projectId" uuid, "userId" uuid, "apiKeyId" uuid, "traceId" uuid, "opName" text, "requestId" text,
  model text, "baseModel" text, "modelId" uuid, "checkpointStep" int, inputs jsonb, output jsonb,
  "promptTokens" int, "completionTokens" int, status text, error text, "startedAt" timestamptz,
  "endedAt" timestamptz, "latencyMs" int`;
const NAMES = COLUMNS.split(",").map((c) => c.trim().split(" ")[0]).join(", ");

/** The calls, and their usage per project, model and UTC day, in one statement (all or nothing). */
const INSERT_CALLS = `
  WITH inserted AS (
    INSERT INTO "Call" (${NAMES})
    SELECT ${NAMES} FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS})
    RETURNING "projectId", model, "startedAt", status, "promptTokens", "completionTokens"
  )
  INSERT INTO "UsageDaily" ("projectId", model, day, requests, errors, "promptTokens", "completionTokens")
  SELECT "projectId", model, ("startedAt" AT TIME ZONE 'UTC')::date, count(*), count(*) FILTER (WHERE status = 'error'),
         sum("promptTokens"), sum("completionTokens")
  FROM inserted GROUP BY 1, 2, 3
  ON CONFLICT ("projectId", model, day) DO UPDATE SET
    requests = "UsageDaily".requests + EXCLUDED.requests,
    errors = "UsageDaily".errors + EXCLUDED.errors,
    "promptTokens" = "UsageDaily"."promptTokens" + EXCLUDED."promptTokens",
    "completionTokens" = "UsageDaily"."completionTokens" + EXCLUDED."completionTokens"`;

async function write(rows: CallRecord[]): Promise<void> {
  const stored = rows.map((row) => ({ ...row, output: toStoredOutput(row.output) }));
  await getDatabase().sql.query(INSERT_CALLS, [storableJson(stored)]);
}

/** Writes the batch; if it fails, each call alone, so one bad row never loses the others. */
async function writeBatch(rows: CallRecord[]): Promise<void> {
  try {
    await write(rows);
  } catch (batchError) {
    if (rows.length === 1) {
      log.error("recording a call failed", { callId: rows[0].id, error: batchError });
      return;
    }
    for (const row of rows) await writeBatch([row]);
  }
}

/** Writes every buffered call and its usage (tests and shutdown await it). */
export async function flushCalls(): Promise<void> {
  clearTimeout(buffer.timer);
  buffer.timer = undefined;
  await buffer.flushing;
  const rows = buffer.rows.splice(0);
  if (rows.length === 0) return;
  buffer.flushing = writeBatch(rows);
  await buffer.flushing;
}
