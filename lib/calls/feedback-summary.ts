// What a call's feedback says at a glance (rows per type, reactions per emoji, the annotations'
// short values), for a page of calls
// in one grouped query: a call's feedback is the rows whose `svc_ref` is the call's ref, found by
// the Feedback (projectId, svcRef) index.
import { getDatabase } from "@/lib/db/client";
import { ANNOTATION_PREFIX, REACTION_TYPE } from "@/lib/feedback/kinds";
import { SHOWN_TEXT_LENGTH, SHOWN_VALUES, type FeedbackSummary } from "./schemas";

const SUMMARY = `
  SELECT f."svcRef" AS ref, f."feedbackType" AS type,
         CASE WHEN f."feedbackType" = '${REACTION_TYPE}' THEN f.payload->>'emoji' END AS emoji, count(*)::int AS n,
         CASE WHEN f."feedbackType" LIKE '${ANNOTATION_PREFIX}%' THEN jsonb_agg(f.payload->'value' ORDER BY f."createdAt" DESC, f.id DESC) END AS vals
    FROM "Feedback" f
   WHERE (f."projectId", f."svcRef") IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
   GROUP BY 1, 2, 3`;

export const emptyFeedbackSummary = (): FeedbackSummary => ({ count: 0, by_type: {}, reactions: {}, annotations: {} });

type Shown = FeedbackSummary["annotations"][string][number];
const isShown = (value: unknown): value is Shown =>
  typeof value === "number" || typeof value === "boolean" || (typeof value === "string" && [...value].length <= SHOWN_TEXT_LENGTH);

/** Each target's summary, by ref (every target has one, empty when nobody judged it). */
export async function summarizeFeedback(targets: { projectId: string; ref: string }[]): Promise<Map<string, FeedbackSummary>> {
  const summaries = new Map(targets.map((t) => [t.ref, emptyFeedbackSummary()]));
  if (targets.length === 0) return summaries;
  const rows = await getDatabase().sql.query<{ ref: string; type: string; emoji: string | null; n: number; vals: unknown[] | null }>(SUMMARY, [
    targets.map((t) => t.projectId),
    targets.map((t) => t.ref),
  ]);
  for (const { ref, type, emoji, n, vals } of rows) {
    const summary = summaries.get(ref);
    if (!summary) continue;
    summary.count += n;
    summary.by_type[type] = (summary.by_type[type] ?? 0) + n;
    if (emoji !== null) summary.reactions[emoji] = (summary.reactions[emoji] ?? 0) + n;
    const shown = (vals ?? []).filter(isShown).slice(0, SHOWN_VALUES);
    if (shown.length > 0) summary.annotations[type.slice(ANNOTATION_PREFIX.length)] = shown;
  }
  return summaries;
}
