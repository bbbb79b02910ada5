import type { Principal } from "@/lib/auth/principal";
import { attachment } from "@/lib/contract/attachment";
import { roleAllows } from "@/lib/auth/principal";
import { INPUT_TEXT, OUTPUT_TEXT } from "@/lib/calls/list-calls";
import { csvText } from "@/lib/contract/csv";
import { getDatabase } from "@/lib/db/client";
import { isCorrection } from "@/lib/feedback/corrections";
import { resolveQueue } from "./queue-access";
import { itemAnnotations } from "./item-annotations";
import type { ExportQuery } from "./item-schemas";

// GET /annotation_queues/{queue_id}/export: a queue's annotations as a file, one record per person
// and item they completed or skipped, in queue order: the call's prompt (its last user message) and
// the model's answer in full, the correction beside the values, the note, and the item's review.
// The correction is the queue's first corrected-reply spec's value when it differs from the answer
// (an untouched form submits the answer as it was: that is no correction). JSONL keeps values as
// JSON; CSV (RFC 4180) has a column per spec. Annotators export their own work only.

interface ItemText {
  id: string;
  callId: string;
  reviewState: string;
  reviewNote: string | null;
  prompt: string | null;
  answer: string | null;
}

export async function exportAnnotations(principal: Principal, queueId: string, query: ExportQuery): Promise<Response> {
  const access = await resolveQueue(principal, queueId, "annotate");
  const db = getDatabase().sql;
  const [items, specs] = await Promise.all([
    db.query<ItemText>(
      `SELECT i.id, i."callId", i."reviewState", i."reviewNote", ${INPUT_TEXT} AS prompt, ${OUTPUT_TEXT} AS answer
         FROM "AnnotationQueueItem" i JOIN "Call" c ON c.id = i."callId"
        WHERE i."queueId" = $1::uuid AND i."deletedAt" IS NULL ORDER BY i.seq`,
      [queueId],
    ),
    db.query<{ name: string; type: string }>(
      `SELECT s.name, s.type FROM "AnnotationQueueSpec" qs JOIN "AnnotationSpec" s ON s.id = qs."specId" WHERE qs."queueId" = $1::uuid ORDER BY qs.position`,
      [queueId],
    ),
  ]);
  const corrected = specs.find((s) => s.type === "corrected_reply")?.name;
  const annotations = await itemAnnotations(access, items.map((i) => i.id), roleAllows(access.role, "use") ? null : principal.user.id);
  const records = items.flatMap((item) =>
    annotations.get(item.id)!.map((a) => {
      const correction = corrected === undefined ? undefined : a.values[corrected];
      return {
        queue_id: queueId, item_id: item.id, call_id: item.callId, annotator: a.annotator, annotator_user_id: a.annotator_user_id, state: a.state,
        prompt: item.prompt, answer: item.answer,
        correction: isCorrection(correction, item.answer) ? correction : null,
        values: a.values, note: a.note, review_state: item.reviewState, review_note: item.reviewNote,
        submitted_at: a.submitted_at, time_spent_ms: a.time_spent_ms,
      };
    }),
  );
  const name = `annotations-${access.queue.name.replace(/[^\w.-]+/g, "-")}.${query.format}`;
  const body =
    query.format === "jsonl"
      ? records.map((r) => JSON.stringify(r) + "\n").join("")
      : csvText([
          ["queue_id", "item_id", "call_id", "annotator", "annotator_user_id", "state", "prompt", "answer", "correction", ...specs.map((s) => s.name), "note", "review_state", "review_note", "submitted_at", "time_spent_ms"],
          ...records.map((r) => [
            r.queue_id, r.item_id, r.call_id, r.annotator, r.annotator_user_id, r.state, r.prompt, r.answer, r.correction,
            ...specs.map((s) => r.values[s.name]), r.note, r.review_state, r.review_note, r.submitted_at, r.time_spent_ms,
          ]),
        ]);
  return new Response(body, {
    headers: {
      "content-type": query.format === "jsonl" ? "application/jsonl; charset=utf-8" : "text/csv; charset=utf-8",
      "content-disposition": attachment(name),
    },
  });
}
