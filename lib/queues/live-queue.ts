import { getDatabase } from "@/lib/db/client";
import { queueNotFound } from "./queue-access";

// Feedback may name the annotation queue it came from (docs/contract.md "Feedback"): the queue must
// be a live (not deleted) queue of the feedback's project, else the write is a 404.

export async function assertLiveQueue(projectId: string, queueId: string): Promise<void> {
  const live = await getDatabase().sql.query(`SELECT 1 FROM "AnnotationQueue" WHERE id = $1::uuid AND "projectId" = $2::uuid AND "deletedAt" IS NULL`, [queueId, projectId]);
  if (live.length === 0) throw queueNotFound(queueId);
}
