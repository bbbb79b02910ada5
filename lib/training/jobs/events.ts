import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { isUuid, toPage, unknownCursor, type Page } from "@/lib/contract/pagination";
import { findJobForCaller } from "./jobs";
import type { EventDto, EventQuery, EventType } from "./schemas";

/** GET .../events: the job's feed in its own order; `after` (an event id) resolves to that event's
 *  position, so the same request always returns the same events (ART re-reads training_started). */
export async function listJobEvents(principal: Principal, jobId: string, query: EventQuery): Promise<Page<EventDto>> {
  await findJobForCaller(principal, jobId);
  let after = 0;
  if (query.after) {
    const cursor = isUuid(query.after) ? await getDb().trainingJobEvent.findFirst({ where: { id: query.after, jobId }, select: { seq: true } }) : null;
    if (!cursor) throw unknownCursor(query.after);
    after = cursor.seq;
  }
  const rows = await getDb().trainingJobEvent.findMany({ where: { jobId, seq: { gt: after } }, orderBy: { seq: "asc" }, take: query.limit + 1 });
  const page = toPage(rows, query.limit);
  return {
    ...page,
    data: page.data.map((e) => ({ id: e.id, type: e.type as EventType, data: e.data as Record<string, unknown>, created_at: e.createdAt.toISOString() })),
  };
}
