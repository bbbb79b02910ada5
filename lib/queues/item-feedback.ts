import type { Principal } from "@/lib/auth/principal";
import { splitProjectRef } from "@/lib/auth/names";
import { callRef } from "@/lib/calls/call-dto";
import { getDatabase } from "@/lib/db/client";
import type { AnnotationSpec } from "@/lib/db/generated/client";
import type { SqlSession } from "@/lib/db/sql";
import { ANNOTATION_PREFIX, NOTE_TYPE } from "@/lib/feedback/kinds";
import { resolveFeedbackProject } from "@/lib/feedback/project-access";
import type { RecordedCall } from "@/lib/feedback/recorded-call";
import { objectRef } from "@/lib/feedback/refs";
import type { CreateFeedbackBody } from "@/lib/feedback/schemas";
import { validateFeedback, type FeedbackRow } from "@/lib/feedback/validate-feedback";
import { insertFeedbackRows } from "@/lib/feedback/write-feedback";
import type { QueueAccess } from "./queue-access";

// The feedback an annotator gives on a queue item: rows on the item's call (`svc_ref` its
// svc:/// ref) with the queue's id, checked by the feedback API's own rules and written as theirs.

export type ItemFeedbackBody = Pick<CreateFeedbackBody, "feedback_type" | "payload" | "annotation_ref">;

export function itemCallRef(access: QueueAccess, callId: string): string {
  const { team, project } = splitProjectRef(access.project);
  return callRef(team, project, callId);
}

export const noteBody = (note: string): ItemFeedbackBody => ({ feedback_type: NOTE_TYPE, payload: { note } });

/** The rows to write, validated before any transaction begins (as /feedback/create validates), but for
 *  the queue (just resolved), the spec versions it pins (`specs`, live ones) and the recorded call
 *  (`call`, when read), which are not looked up again. */
export async function validateItemFeedback(
  principal: Principal,
  access: QueueAccess,
  ref: string,
  bodies: ItemFeedbackBody[],
  specs: AnnotationSpec[] = [],
  call?: RecordedCall | null,
): Promise<FeedbackRow[]> {
  const project = await resolveFeedbackProject(principal, access.project, { write: true });
  const known = { queueId: access.queue.id, specs: new Map(specs.map((spec) => [objectRef(access.project, spec.name, spec.digest), spec])), call };
  const rows: FeedbackRow[] = [];
  for (const body of bodies) rows.push(await validateFeedback(project, { ...body, project_id: access.project, svc_ref: ref, queue_id: access.queue.id }, known));
  return rows;
}

/** The annotator's rows on this call from this queue: what a submission replaces. */
const MINE_SQL = `"projectId" = $1::uuid AND "queueId" = $2::uuid AND "svcRef" = $3 AND "wbUserId" = $4::uuid`;
const mineParams = (access: QueueAccess, ref: string, annotatorId: string) => [access.queue.projectId, access.queue.id, ref, annotatorId];

export interface WrittenItemFeedback {
  id: string;
  feedback_type: string;
  payload: Record<string, unknown>;
}

/** Inserts the rows (in the caller's transaction), after deleting the annotator's earlier ones when `replace`. */
export async function writeItemFeedback(
  tx: SqlSession,
  access: QueueAccess,
  ref: string,
  annotatorId: string,
  rows: FeedbackRow[],
  { replace }: { replace: boolean },
): Promise<WrittenItemFeedback[]> {
  if (replace) await tx.query(`DELETE FROM "Feedback" WHERE ${MINE_SQL}`, mineParams(access, ref, annotatorId));
  const written = await insertFeedbackRows(tx, rows, annotatorId);
  return written.map(({ id, payload }, i) => ({ id, feedback_type: rows[i].feedbackType, payload }));
}

/** The annotator's annotations of the item in this queue (a value per spec name) and note. */
export async function myItemFeedback(access: QueueAccess, ref: string, annotatorId: string): Promise<{ values: Record<string, unknown>; note: string | null }> {
  const rows = await getDatabase().sql.query<{ feedbackType: string; payload: unknown }>(
    `SELECT "feedbackType", payload FROM "Feedback" WHERE ${MINE_SQL} ORDER BY "createdAt", id`,
    mineParams(access, ref, annotatorId),
  );
  const values: Record<string, unknown> = {};
  let note: string | null = null;
  for (const row of rows) {
    const payload = row.payload as Record<string, unknown>;
    if (row.feedbackType.startsWith(ANNOTATION_PREFIX)) values[row.feedbackType.slice(ANNOTATION_PREFIX.length)] = payload.value;
    else if (row.feedbackType === NOTE_TYPE) note = payload.note as string;
  }
  return { values, note };
}
