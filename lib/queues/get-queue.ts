import type { Principal } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { queueNotFound } from "@/lib/feedback/queue-ref";
import { resolveQueue } from "./queue-access";
import { queueDto } from "./queue-dto";
import type { QueueDto } from "./queue-schemas";

// GET /annotation_queues/{queue_id} (anyone who reaches it) and DELETE (members and admins): a
// deleted queue is gone from every route; its items, progress and feedback stay in the database.

export async function getQueue(principal: Principal, queueId: string): Promise<QueueDto> {
  await resolveQueue(principal, queueId, "annotate");
  return queueDto(queueId);
}

export async function deleteQueue(principal: Principal, queueId: string): Promise<{ id: string; object: "annotation_queue"; deleted: true }> {
  await resolveQueue(principal, queueId, "use");
  // Conditional: of two concurrent deletes, one answers 404 as a second delete does.
  const { count } = await getDb().annotationQueue.updateMany({ where: { id: queueId, deletedAt: null }, data: { deletedAt: new Date() } });
  if (count === 0) throw queueNotFound(queueId);
  return { id: queueId, object: "annotation_queue", deleted: true };
}
