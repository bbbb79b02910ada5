import { getDb } from "@/lib/db/client";
import type { Prisma } from "@/lib/db/generated/client";
import { log } from "@/lib/log";

// Every completion is recorded as a Call, write-behind: the response never waits for the insert.
// Rows are batched (one createMany per flush) and flushed on a short timer and at shutdown.

const FLUSH_INTERVAL_MS = 250;
const MAX_BATCH = 200;

const key = Symbol.for("anneal.callBuffer");
interface Buffer {
  rows: Prisma.CallCreateManyInput[];
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
}
const buffer: Buffer = ((globalThis as { [key]?: Buffer })[key] ??= { rows: [] });

export function recordCall(row: Prisma.CallCreateManyInput): void {
  buffer.rows.push(row);
  if (buffer.rows.length >= MAX_BATCH) void flushCalls();
  else buffer.timer ??= setTimeout(() => void flushCalls(), FLUSH_INTERVAL_MS);
}

/** Writes every buffered call (tests and shutdown await it). */
export async function flushCalls(): Promise<void> {
  clearTimeout(buffer.timer);
  buffer.timer = undefined;
  await buffer.flushing;
  const rows = buffer.rows.splice(0);
  if (rows.length === 0) return;
  buffer.flushing = getDb()
    .call.createMany({ data: rows })
    .then(() => undefined)
    .catch((error: unknown) => log.error("recording calls failed", { count: rows.length, error }));
  await buffer.flushing;
}
