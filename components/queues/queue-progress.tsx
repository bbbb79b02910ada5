import type { QueueDto } from "./queries";

// A queue's items by status as one stacked bar — completed, skipped by everyone, in progress,
// rejected by a reviewer — with the numbers in words beside it (and as the progressbar's value text
// for screen readers), including how many completed items a reviewer accepted (done).

type Counts = QueueDto["counts"];

const SEGMENTS = [
  { key: "completed", label: "completed", className: "bg-emerald-500" },
  { key: "skipped", label: "skipped", className: "bg-zinc-400" },
  { key: "in_progress", label: "in progress", className: "bg-sky-300" },
  { key: "rejected", label: "rejected", className: "bg-red-400" },
] as const;

export function QueueProgress({ counts, label }: { counts: Counts; label: string }) {
  const done = counts.completed + counts.skipped;
  const share = (n: number) => (counts.total === 0 ? 0 : (n / counts.total) * 100);
  const words =
    `${counts.completed} of ${counts.total} completed` +
    (counts.accepted ? ` (${counts.accepted} accepted)` : "") +
    (counts.skipped ? `, ${counts.skipped} skipped` : "") +
    (counts.in_progress ? `, ${counts.in_progress} in progress` : "") +
    (counts.rejected ? `, ${counts.rejected} rejected` : "");
  return (
    <div className="min-w-40">
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={counts.total}
        aria-valuenow={done}
        aria-valuetext={words}
        className="flex h-1.5 w-full overflow-hidden rounded-full bg-zinc-100"
      >
        {SEGMENTS.map((segment) => (
          <div key={segment.key} className={segment.className} style={{ width: `${share(counts[segment.key])}%` }} />
        ))}
      </div>
      <p className="mt-1 text-xs text-zinc-500 tabular-nums">{words}</p>
    </div>
  );
}
