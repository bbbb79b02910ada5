import { MessageSquareText, Tags } from "lucide-react";
import { ANNOTATION_PREFIX, NOTE, REACTION } from "@/components/calls/feedback";
import type { FeedbackSummary } from "@/components/calls/queries";

// A call's feedback in a list row: reactions per emoji, how many notes, each annotation spec's
// values (newest first; one whose values are long texts shows how many it has), and other rows.

export function FeedbackSummaryCell({ summary }: { summary: FeedbackSummary }) {
  if (summary.count === 0) return <span className="text-xs text-zinc-400">—</span>;
  const notes = summary.by_type[NOTE] ?? 0;
  const annotations = Object.entries(summary.by_type).reduce((sum, [type, n]) => sum + (type.startsWith(ANNOTATION_PREFIX) ? n : 0), 0);
  const valued = Object.entries(summary.annotations);
  const shownCount = valued.reduce((sum, [spec]) => sum + (summary.by_type[`${ANNOTATION_PREFIX}${spec}`] ?? 0), 0);
  const uncounted = annotations - shownCount;
  const other = summary.count - notes - annotations - (summary.by_type[REACTION] ?? 0);
  const chip = "inline-flex items-center gap-1 rounded-full bg-zinc-100 px-1.5 py-0.5 text-[11px] tabular-nums text-zinc-700";
  return (
    <span className="flex flex-wrap items-center gap-1" data-testid="feedback-summary">
      {Object.entries(summary.reactions).map(([emoji, n]) => (
        <span key={emoji} className={chip} aria-label={`${n} × ${emoji}`}>
          {emoji} {n}
        </span>
      ))}
      {notes > 0 && (
        <span className={chip} title="Notes" aria-label={`${notes} note${notes === 1 ? "" : "s"}`}>
          <MessageSquareText className="size-3" aria-hidden /> {notes}
        </span>
      )}
      {valued.map(([spec, values]) => (
        <span key={spec} className={chip} title={`Annotation ${spec}`} data-testid="annotation-values">
          <span className="text-zinc-500">{spec}</span> {values.map(String).join(", ")}
        </span>
      ))}
      {uncounted > 0 && (
        <span className={chip} title="Annotations" aria-label={`${uncounted} annotation${uncounted === 1 ? "" : "s"}`}>
          <Tags className="size-3" aria-hidden /> {uncounted}
        </span>
      )}
      {other > 0 && (
        <span className={chip} title="Other feedback">
          +{other}
        </span>
      )}
    </span>
  );
}
