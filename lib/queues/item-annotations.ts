import { getDatabase } from "@/lib/db/client";
import { ANNOTATION_PREFIX, NOTE_TYPE } from "@/lib/feedback/kinds";
import { itemCallRef } from "./item-feedback";
import type { QueueAccess } from "./queue-access";
import type { ItemAnnotation } from "./item-schemas";

// Who finished each item of a page (completed or skipped it) and what they gave in this queue: a
// value per spec, their note, and the time from their claim to their submission (the progress row
// is created by the claim and updated by the submission; one written in a single step was never
// claimed). `onlyAnnotator` limits it to one person's work: annotators see their own only.

interface Row {
  itemId: string;
  annotatorId: string;
  username: string | null;
  state: "completed" | "skipped";
  createdAt: Date;
  updatedAt: Date;
  values: Record<string, unknown> | null;
  note: string | null;
}

export async function itemAnnotations(access: QueueAccess, itemIds: string[], onlyAnnotator: string | null): Promise<Map<string, ItemAnnotation[]>> {
  const byItem = new Map<string, ItemAnnotation[]>(itemIds.map((id) => [id, []]));
  if (itemIds.length === 0) return byItem;
  const rows = await getDatabase().sql.query<Row>(
    `SELECT p."itemId", p."annotatorId", u.username, p.state, p."createdAt", p."updatedAt",
            (SELECT jsonb_object_agg(substr(f."feedbackType", $5::int + 1), f.payload->'value' ORDER BY f."createdAt")
               FROM "Feedback" f
              WHERE f."projectId" = $2::uuid AND f."queueId" = $3::uuid AND f."svcRef" = $4 || i."callId"::text
                AND f."wbUserId" = p."annotatorId" AND starts_with(f."feedbackType", $6)) AS values,
            (SELECT f.payload->>'note' FROM "Feedback" f
              WHERE f."projectId" = $2::uuid AND f."queueId" = $3::uuid AND f."svcRef" = $4 || i."callId"::text
                AND f."wbUserId" = p."annotatorId" AND f."feedbackType" = $7
              ORDER BY f."createdAt" DESC LIMIT 1) AS note
       FROM "AnnotationProgress" p
       JOIN "AnnotationQueueItem" i ON i.id = p."itemId"
       LEFT JOIN "User" u ON u.id = p."annotatorId"
      WHERE p."itemId" = ANY($1::uuid[]) AND p.state IN ('completed', 'skipped') AND ($8::uuid IS NULL OR p."annotatorId" = $8::uuid)
      ORDER BY p."updatedAt", p.id`,
    [itemIds, access.queue.projectId, access.queue.id, itemCallRef(access, ""), ANNOTATION_PREFIX.length, ANNOTATION_PREFIX, NOTE_TYPE, onlyAnnotator],
  );
  for (const row of rows) {
    const spent = new Date(row.updatedAt).getTime() - new Date(row.createdAt).getTime();
    byItem.get(row.itemId)!.push({
      annotator_user_id: row.annotatorId,
      annotator: row.username ?? row.annotatorId,
      state: row.state,
      values: row.values ?? {},
      note: row.note,
      submitted_at: new Date(row.updatedAt).toISOString(),
      time_spent_ms: spent > 0 ? spent : null,
    });
  }
  return byItem;
}
