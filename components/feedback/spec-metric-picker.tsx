"use client";

import { Labelled } from "@/components/feedback/labelled";
import { newMetric, type MetricSpec, type StatsSelection, type ValueType } from "@/components/feedback/stats-selection";
import { ANNOTATION_PREFIX } from "@/components/calls/feedback";
import { useAnnotationSpecs, type AnnotationSpec } from "@/components/calls/queries";
import { INPUT_CLASS } from "@/components/ui/field";

// Charting an annotation spec by its name: picking one filters the stats to its feedback type
// (`wandb.annotation.<name>`) and charts its `value` as the spec's kind of value — what a person
// would otherwise put together by hand from the type filter and the payload keys.

const VALUE_TYPES: Partial<Record<AnnotationSpec["type"], ValueType>> = { numeric: "numeric", boolean: "boolean", categorical: "categorical" };

export function SpecMetricPicker({ selection, onChange }: { selection: StatsSelection; onChange: (patch: { feedback_type?: string; metrics: MetricSpec[] }) => void }) {
  const specs = useAnnotationSpecs(selection.project);
  const chartable = (specs.data ?? []).filter((spec) => VALUE_TYPES[spec.type]);
  if (chartable.length === 0) return null;
  const current = selection.feedback_type?.startsWith(ANNOTATION_PREFIX) ? selection.feedback_type.slice(ANNOTATION_PREFIX.length) : "";
  return (
    <Labelled label="Annotation spec" className="min-w-48">
      {(id) => (
        <select
          id={id}
          value={chartable.some((spec) => spec.name === current) ? current : ""}
          onChange={(e) => {
            const spec = chartable.find((s) => s.name === e.target.value);
            if (spec) onChange({ feedback_type: `${ANNOTATION_PREFIX}${spec.name}`, metrics: [newMetric("value", VALUE_TYPES[spec.type]!)] });
            else onChange({ feedback_type: undefined, metrics: [] });
          }}
          className={`${INPUT_CLASS} h-9 py-1.5 pr-8`}
        >
          <option value="">Any feedback (pick payload keys below)</option>
          {chartable.map((spec) => (
            <option key={spec.name} value={spec.name}>
              {spec.name} ({spec.type})
            </option>
          ))}
        </select>
      )}
    </Labelled>
  );
}
