import { formatDuration } from "@/lib/client/job-progress";
import { CorrectionDiff } from "./correction-diff";
import type { ListedItemDto, QueueDto } from "./queries";

// Each person's work on an item: their values (a corrected reply as a diff against the model's
// reply), their note, and the time from their claim to their submission.

const shown = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

export function ItemAnnotationsCell({ item, queue }: { item: ListedItemDto; queue: QueueDto }) {
  if (item.annotations.length === 0) return <span className="text-xs text-zinc-400">none yet</span>;
  const corrected = new Set(queue.specs.filter((s) => s.type === "corrected_reply").map((s) => s.name));
  return (
    <ul className="space-y-2">
      {item.annotations.map((a) => (
        <li key={a.annotator_user_id} data-testid="item-annotation" className="text-xs">
          <p className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-medium text-zinc-900">{a.annotator}</span>
            {a.state === "skipped" && <span className="text-violet-700">skipped</span>}
            {a.time_spent_ms !== null && <span className="text-zinc-400" title="From claiming the item to submitting it">{formatDuration(a.time_spent_ms)}</span>}
          </p>
          {Object.entries(a.values)
            .filter(([name]) => !corrected.has(name))
            .map(([name, value]) => (
              <span key={name} className="mr-2 text-zinc-600">
                {name}: <span className="font-medium text-zinc-900">{shown(value)}</span>
              </span>
            ))}
          {Object.entries(a.values)
            .filter(([name, value]) => corrected.has(name) && typeof value === "string")
            .map(([name, value]) => (
              <CorrectionDiff key={name} answer={item.answer ?? ""} correction={value as string} label={`${name} by ${a.annotator}, against the model's reply`} />
            ))}
          {a.note && <p className="text-zinc-500 italic">“{a.note}”</p>}
        </li>
      ))}
    </ul>
  );
}
