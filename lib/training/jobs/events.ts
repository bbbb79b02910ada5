import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { pageBySeq, type Page } from "@/lib/contract/pagination";
import { findJobForCaller } from "./jobs";
import type { EventDto, EventQuery, EventType } from "./schemas";

/** GET .../events: the job's feed in its own order; `after` (an event id) resolves to that event's
 *  position, so the same request always returns the same events (ART re-reads training_started). */
export async function listJobEvents(principal: Principal, jobId: string, query: EventQuery): Promise<Page<EventDto>> {
  await findJobForCaller(principal, jobId);
  return pageBySeq({
    query,
    findSeq: async (id) => (await getDb().trainingJobEvent.findFirst({ where: { id, jobId }, select: { seq: true } }))?.seq,
    findRows: ({ seq, order, take }) => getDb().trainingJobEvent.findMany({ where: { jobId, seq }, orderBy: { seq: order }, take }),
    toDto: (e) => ({ id: e.id, type: e.type as EventType, data: e.data as Record<string, unknown>, created_at: e.createdAt.toISOString() }),
  });
}
