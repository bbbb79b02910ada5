import { KEY_METRICS } from "@/lib/client/learning-curve";

// A step's metrics as compact `key value` chips (the full list on hover of "+n"); `label` names a
// key for what its number is (a checkpoint's best-epoch or mean-over-steps values).

/** The numbers that tell steps apart (held-out accuracy, reward, losses) first, then by name. */
const keyRank = (key: string) => (KEY_METRICS.includes(key) ? KEY_METRICS.indexOf(key) : KEY_METRICS.length);
const format = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });

export function MetricValues({ metrics, max = 4, label = (key) => key }: { metrics: Record<string, unknown>; max?: number; label?: (key: string) => string }) {
  const entries = Object.entries(metrics)
    .filter((entry): entry is [string, number] => typeof entry[1] === "number")
    .sort(([a], [b]) => keyRank(a) - keyRank(b) || a.localeCompare(b));
  if (entries.length === 0) return <span className="text-zinc-400">—</span>;
  const shown = entries.slice(0, max);
  const rest = entries.slice(max);
  return (
    <span className="inline-flex flex-wrap gap-1">
      {shown.map(([key, value]) => (
        <span key={key} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] text-zinc-700">
          {label(key)} <span className="font-semibold tabular-nums">{format.format(value)}</span>
        </span>
      ))}
      {rest.length > 0 && (
        <span title={rest.map(([k, v]) => `${label(k)} ${format.format(v)}`).join("\n")} className="rounded px-1 py-0.5 text-[11px] text-zinc-500">
          +{rest.length} more
        </span>
      )}
    </span>
  );
}
