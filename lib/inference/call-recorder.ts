import { getDb } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { log } from "@/lib/log";

// Every completion is recorded as a Call, write-behind: the response never waits for the insert.
// Rows are batched and flushed on a short timer (and at shutdown): one transaction inserts the
// calls and adds them to the per-day usage rollups.

const FLUSH_INTERVAL_MS = 250;
const MAX_BATCH = 200;

const key = Symbol.for("anneal.callBuffer");
interface CallBuffer {
  rows: Prisma.CallCreateManyInput[];
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
}
const buffer: CallBuffer = ((globalThis as { [key]?: CallBuffer })[key] ??= { rows: [] });

/** JSON as PostgreSQL's jsonb stores it: NUL cannot be stored in text, so it becomes U+FFFD. */
export function toStorableJson(value: unknown): Prisma.InputJsonValue {
  return JSON.parse(JSON.stringify(value ?? null).replace(/\\u0000/g, "\\ufffd")) as Prisma.InputJsonValue;
}

export function recordCall(row: Prisma.CallCreateManyInput): void {
  buffer.rows.push(row);
  if (buffer.rows.length >= MAX_BATCH) void flushCalls();
  else buffer.timer ??= setTimeout(() => void flushCalls(), FLUSH_INTERVAL_MS);
}

interface UsageRow {
  projectId: string;
  model: string;
  day: string;
  requests: number;
  errors: number;
  promptTokens: number;
  completionTokens: number;
}

function rollUp(rows: Prisma.CallCreateManyInput[]): UsageRow[] {
  const groups = new Map<string, UsageRow>();
  for (const row of rows) {
    const day = new Date(row.startedAt).toISOString().slice(0, 10);
    const id = `${row.projectId}\0${row.model}\0${day}`;
    const group = groups.get(id) ?? { projectId: row.projectId, model: row.model, day, requests: 0, errors: 0, promptTokens: 0, completionTokens: 0 };
    group.requests += 1;
    group.errors += row.status === "error" ? 1 : 0;
    group.promptTokens += row.promptTokens ?? 0;
    group.completionTokens += row.completionTokens ?? 0;
    groups.set(id, group);
  }
  return [...groups.values()];
}

function addUsage(usage: UsageRow[]) {
  const values = usage.map(
    (u) => Prisma.sql`(${u.projectId}::uuid, ${u.model}, ${u.day}::date, ${u.requests}, ${u.errors}, ${u.promptTokens}, ${u.completionTokens})`,
  );
  return getDb().$executeRaw`
    INSERT INTO "UsageDaily" ("projectId", "model", "day", "requests", "errors", "promptTokens", "completionTokens")
    VALUES ${Prisma.join(values)}
    ON CONFLICT ("projectId", "model", "day") DO UPDATE SET
      "requests" = "UsageDaily"."requests" + EXCLUDED."requests",
      "errors" = "UsageDaily"."errors" + EXCLUDED."errors",
      "promptTokens" = "UsageDaily"."promptTokens" + EXCLUDED."promptTokens",
      "completionTokens" = "UsageDaily"."completionTokens" + EXCLUDED."completionTokens"`;
}

function write(rows: Prisma.CallCreateManyInput[]) {
  return getDb().$transaction([getDb().call.createMany({ data: rows }), addUsage(rollUp(rows))]);
}

/** Writes the batch; if it fails, each call alone, so one bad row never loses the others. */
async function writeBatch(rows: Prisma.CallCreateManyInput[]): Promise<void> {
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
