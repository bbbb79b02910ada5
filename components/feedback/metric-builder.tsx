"use client";

import { Plus, X } from "lucide-react";
import { useState } from "react";
import { CommitInput } from "@/components/feedback/commit-input";
import { Labelled } from "@/components/feedback/labelled";
import type { PayloadKey } from "@/components/feedback/queries";
import { AGGREGATIONS, newMetric, type MetricSpec, type ValueType } from "@/components/feedback/stats-selection";
import { Button } from "@/components/ui/button";
import { INPUT_CLASS } from "@/components/ui/field";

// The metrics to chart: each a payload key (from the keys the project's feedback has), how its
// values are read (numeric, boolean, categorical), and which aggregations and percentiles of them.

const VALUE_TYPES: ValueType[] = ["numeric", "boolean", "categorical"];
const CONTROL = `${INPUT_CLASS} h-9 py-1.5`;

/** How a key's values are read by default, from the kind of value the keys endpoint saw there. */
const valueTypeFor = (kind: PayloadKey["value_kind"] | undefined): ValueType => (kind === "number" ? "numeric" : kind === "boolean" ? "boolean" : "categorical");

/** "50, 99.9" → [50, 99.9]; null when any item is not a number in 0..100. */
function parsePercentiles(text: string): number[] | null {
  const items = text.split(/[\s,]+/).filter(Boolean);
  const numbers = items.map(Number);
  return numbers.every((n) => Number.isFinite(n) && n >= 0 && n <= 100) ? [...new Set(numbers)] : null;
}

function MetricRow({ index, metric, keys, onChange, onRemove }: { index: number; metric: MetricSpec; keys: PayloadKey[]; onChange: (metric: MetricSpec) => void; onRemove: () => void }) {
  const [percentilesError, setPercentilesError] = useState(false);
  const name = `Metric ${index + 1}`;
  // A metric from the URL may name a key the recent feedback no longer has: it stays choosable.
  const options: { json_path: string; value_kind?: string }[] = keys.some((k) => k.json_path === metric.json_path) ? keys : [{ json_path: metric.json_path }, ...keys];
  const offered = AGGREGATIONS[metric.value_type].offered;
  return (
    <fieldset className="flex flex-wrap items-end gap-3 rounded-lg border border-zinc-200 px-3 pt-1 pb-3">
      <legend className="px-1 text-xs font-medium text-zinc-500">{name}</legend>
      <Labelled label="Payload key" className="min-w-48">
        {(id) => (
          <select
            id={id}
            value={metric.json_path}
            onChange={(e) => onChange(newMetric(e.target.value, valueTypeFor(keys.find((k) => k.json_path === e.target.value)?.value_kind)))}
            className={`${CONTROL} pr-8 font-mono text-xs`}
          >
            {options.map((key) => (
              <option key={key.json_path} value={key.json_path}>
                {key.json_path}
                {key.value_kind && ` (${key.value_kind})`}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label="Value type">
        {(id) => (
          <select id={id} value={metric.value_type} onChange={(e) => onChange(newMetric(metric.json_path, e.target.value as ValueType))} className={`${CONTROL} pr-8`}>
            {VALUE_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <div role="group" aria-label="Aggregations" className="flex items-center gap-3 pb-2">
        {offered.map((aggregation) => (
          <label key={aggregation} className="flex cursor-pointer items-center gap-1.5 text-[13px] text-zinc-700">
            <input
              type="checkbox"
              className="size-3.5 rounded border-zinc-300 accent-brand-600"
              checked={metric.aggregations.includes(aggregation)}
              onChange={(e) =>
                onChange({ ...metric, aggregations: e.target.checked ? offered.filter((a) => a === aggregation || metric.aggregations.includes(a)) : metric.aggregations.filter((a) => a !== aggregation) })
              }
            />
            {aggregation}
          </label>
        ))}
      </div>
      {metric.value_type === "numeric" && (
        <Labelled label="Percentiles" className="w-36">
          {(id) => (
            <CommitInput
              id={id}
              value={metric.percentiles.join(", ")}
              onCommit={(text) => {
                const percentiles = parsePercentiles(text);
                setPercentilesError(percentiles === null);
                if (percentiles) onChange({ ...metric, percentiles });
              }}
              placeholder="50, 95"
              aria-invalid={percentilesError || undefined}
              title="Numbers from 0 to 100, separated by commas"
              className={CONTROL}
            />
          )}
        </Labelled>
      )}
      <Button variant="ghost" size="icon" onClick={onRemove} aria-label={`Remove ${name.toLowerCase()}`} className="mb-0.5 ml-auto">
        <X />
      </Button>
      {percentilesError && (
        <p role="alert" className="w-full text-xs text-red-600">
          Percentiles are numbers from 0 to 100, separated by commas.
        </p>
      )}
    </fieldset>
  );
}

export function MetricBuilder({ metrics, keys, onChange }: { metrics: MetricSpec[]; keys: PayloadKey[] | undefined; onChange: (metrics: MetricSpec[]) => void }) {
  const unused = keys?.find((k) => !metrics.some((m) => m.json_path === k.json_path)) ?? keys?.[0];
  return (
    <div className="space-y-3">
      {metrics.map((metric, i) => (
        <MetricRow
          key={i}
          index={i}
          metric={metric}
          keys={keys ?? []}
          onChange={(next) => onChange(metrics.map((m, j) => (j === i ? next : m)))}
          onRemove={() => onChange(metrics.filter((_, j) => j !== i))}
        />
      ))}
      <div className="flex items-center gap-3">
        <Button variant="secondary" size="sm" disabled={!unused} onClick={() => unused && onChange([...metrics, newMetric(unused.json_path, valueTypeFor(unused.value_kind))])}>
          <Plus /> Add metric
        </Button>
        {keys && keys.length === 0 && <p className="text-xs text-zinc-500">This project&apos;s feedback has no payload keys yet.</p>}
      </div>
    </div>
  );
}
