import { notFound } from "@/lib/contract/errors";
import { getDatabase } from "@/lib/db/client";

// Feedback may name the annotation queue it came from (docs/contract.md "Feedback"): the queue must
// be a live (not deleted) queue of the feedback's project, else the write is a 404. The 404 is the
// one every queue route gives for a queue the caller cannot reach (lib/queues/queue-access.ts).

export const queueNotFound = (queueId: string) => notFound(`Annotation queue '${queueId}' not found or deleted.`);

export async function assertLiveQueue(projectId: string, queueId: string): Promise<void> {
  const live = await getDatabase().sql.query(`SELECT 1 FROM "AnnotationQueue" WHERE id = $1::uuid AND "projectId" = $2::uuid AND "deletedAt" IS NULL`, [queueId, projectId]);
  if (live.length === 0) throw queueNotFound(queueId);
}
