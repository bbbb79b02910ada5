import { toStoredOutput } from "@/lib/call-log/stored-output";
import { retryOnBound } from "@/lib/db/bound-errors";
import { getDatabase } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { log } from "@/lib/log";

// Every completion is recorded as a Call. One SQL statement inserts a batch of calls and adds them to
// the per-day usage rollups; it is plain SQL over one JSON parameter, not Prisma (Prisma's query
// compilation cost more than the insert itself). Responses are stored in the form of
// stored-output.ts (logprobs' bytes left out where they are their token's UTF-8).
//
// On PostgreSQL a call is durable before its response ends: recordCall's promise settles once the
// call is committed, and the route awaits it before the last byte (a web process killed right
// after answering loses nothing). Calls that end while a write is in flight go together in the
// next statement (group commit), so under load a statement still carries many calls.
// On the embedded database calls are written behind, once a second: every query there runs on the
// event loop that streams tokens, a statement's fixed cost (~1 ms) is shared by a second's calls,
// and PGlite is only durable once closed anyway (a crash of that one process loses more than calls).

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

/** A call waiting to be written, and how its writer is told it was. */
interface PendingCall {
  row: CallRecord;
  written: Promise<void>;
  resolve: () => void;
}

const key = Symbol.for("anneal.callBuffer");
interface CallBuffer {
  queued: PendingCall[];
  /** The batch being written (one statement at a time). */
  inFlight: PendingCall[];
  writing: boolean;
  timer?: NodeJS.Timeout;
  /** flushCalls() callers waiting: queued calls are written as soon as the writer is free. */
  flushWaiters: number;
}
const buffer: CallBuffer = ((globalThis as { [key]?: CallBuffer })[key] ??= { queued: [], inFlight: [], writing: false, flushWaiters: 0 });

/** JSON text as PostgreSQL's jsonb stores it: NUL cannot be stored in text, so it becomes U+FFFD. */
const storableJson = (value: unknown): string => JSON.stringify(value ?? null).replace(/\\u0000/g, "\\ufffd");

/** A value as PostgreSQL's jsonb stores it (see storableJson), for values written through Prisma. */
export function toStorableJson(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(storableJson(value)) as Prisma.InputJsonValue;
}

/** Where a call must be committed before its response ends (see the header). */
const durable = () => getDatabase().kind === "postgres";

/**
 * Records a call. The promise settles when the call is committed on PostgreSQL, at once on the
 * embedded database (written behind); it never rejects (a refused row is logged and dropped).
 */
export function recordCall(row: CallRecord): Promise<void> {
  let resolve!: () => void;
  const written = new Promise<void>((r) => (resolve = r));
  buffer.queued.push({ row, written, resolve });
  if (durable() || buffer.queued.length >= MAX_BATCH) writeQueued();
  else buffer.timer ??= setTimeout(() => {
    buffer.timer = undefined;
    writeQueued();
  }, FLUSH_INTERVAL_MS);
  return durable() ? written : Promise.resolve();
}

/** Writes the queued calls now, unless a write is in flight (its end writes what queued meanwhile). */
function writeQueued(): void {
  if (buffer.writing || buffer.queued.length === 0) return;
  clearTimeout(buffer.timer);
  buffer.timer = undefined;
  const batch = (buffer.inFlight = buffer.queued.splice(0, MAX_BATCH));
  buffer.writing = true;
  void writeBatch(batch.map((p) => p.row)).finally(() => {
    buffer.writing = false;
    buffer.inFlight = [];
    for (const p of batch) p.resolve();
    // Written behind, calls that queued meanwhile wait for their timer unless someone waits on them.
    if (durable() || buffer.flushWaiters > 0 || buffer.queued.length >= MAX_BATCH || buffer.timer === undefined) writeQueued();
  });
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

/** Writes the batch; if it fails, each call alone, so one bad row never loses the others. A batch
 *  that hit a database bound (a lock or a busy pool: lib/db/bounds.ts) is written again first,
 *  for up to 20 s: its statement is all or nothing, and an answered call is not dropped for a stall. */
async function writeBatch(rows: CallRecord[]): Promise<void> {
  try {
    await retryOnBound(() => write(rows));
  } catch (batchError) {
    if (rows.length === 1) {
      log.error("recording a call failed", { callId: rows[0].id, error: batchError });
      return;
    }
    for (const row of rows) await writeBatch([row]);
  }
}

/** Writes every call recorded so far and waits for them (readers of calls or usage, tests, shutdown). */
export async function flushCalls(): Promise<void> {
  const waiting = [...buffer.inFlight, ...buffer.queued].map((p) => p.written);
  if (waiting.length === 0) return;
  buffer.flushWaiters++;
  try {
    writeQueued();
    await Promise.all(waiting);
  } finally {
    buffer.flushWaiters--;
  }
}
