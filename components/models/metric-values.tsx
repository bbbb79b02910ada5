// A step's metrics as compact `key value` chips (the full list on hover of "+n").

const format = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });

export function MetricValues({ metrics, max = 4 }: { metrics: Record<string, unknown>; max?: number }) {
  const entries = Object.entries(metrics)
    .filter((entry): entry is [string, number] => typeof entry[1] === "number")
    .sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return <span className="text-zinc-400">—</span>;
  const shown = entries.slice(0, max);
  const rest = entries.slice(max);
  return (
    <span className="inline-flex flex-wrap gap-1">
      {shown.map(([key, value]) => (
        <span key={key} className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] text-zinc-700">
          {key} <span className="font-semibold tabular-nums">{format.format(value)}</span>
        </span>
      ))}
      {rest.length > 0 && (
        <span title={rest.map(([k, v]) => `${k} ${format.format(v)}`).join("\n")} className="rounded px-1 py-0.5 text-[11px] text-zinc-500">
          +{rest.length} more
        </span>
      )}
    </span>
  );
}
