"use client";

import { ANNOTATION_PREFIX, NOTE, REACTION, THUMBS_DOWN, THUMBS_UP } from "@/components/calls/feedback";
import { TIME_PRESETS, useAnnotationSpecs, type CallLogFilter, type CallStatus, type TimePreset } from "@/components/calls/queries";
import { useProjects, useWorkspace } from "@/components/identity/queries";
import { useModels } from "@/components/inference/queries";

// The call log's filters: project, model, status, time (a preset or a custom range), whether a
// call has feedback, and of what kind. Controlled: the page keeps them in its URL.

const STATUSES: CallStatus[] = ["success", "error", "cancelled"];
const PRESET_LABELS: Record<TimePreset, string> = { "1h": "Last hour", "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };
const SELECT = "rounded-md border border-zinc-300 bg-white py-1 pr-7 pl-2 text-[13px] text-zinc-800 shadow-xs focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30";

/** A kind of feedback as the list's (type, value) filter pair, encoded as one select value. */
const kindValue = (type = "", value = "") => (type ? `${type}\n${value}` : "");

/** `datetime-local` text (the browser's zone) ↔ ISO 8601 UTC. */
const toLocalInput = (iso: string | undefined) => {
  if (!iso) return "";
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (local: string) => (local ? new Date(local).toISOString() : undefined);

export function CallFilters({ filter, onChange }: { filter: CallLogFilter; onChange: (patch: Partial<CallLogFilter>) => void }) {
  const { data: workspace } = useWorkspace();
  const projects = useProjects(workspace?.team);
  const models = useModels();
  const specs = useAnnotationSpecs(filter.project);
  const kinds: [string, string][] = [
    [kindValue(REACTION, THUMBS_UP), `${THUMBS_UP} Thumbs up`],
    [kindValue(REACTION, THUMBS_DOWN), `${THUMBS_DOWN} Thumbs down`],
    [kindValue(REACTION), "Any reaction"],
    [kindValue(NOTE), "Note"],
    [kindValue(`${ANNOTATION_PREFIX}*`), "Any annotation"],
    ...(specs.data ?? []).map((spec): [string, string] => [kindValue(`${ANNOTATION_PREFIX}${spec.name}`), `Annotation: ${spec.name}`]),
  ];
  const kind = kindValue(filter.feedback_type, filter.feedback_value);
  if (kind && !kinds.some(([value]) => value === kind)) kinds.push([kind, `${filter.feedback_type}${filter.feedback_value ? ` = ${filter.feedback_value}` : ""}`]);

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Filters">
      <select aria-label="Filter by project" value={filter.project ?? ""} onChange={(e) => onChange({ project: e.target.value || undefined })} className={SELECT}>
        <option value="">All projects</option>
        {workspace &&
          (projects.data ?? []).map((p) => (
            <option key={p.name} value={`${workspace.team}/${p.name}`}>
              {workspace.team}/{p.name}
            </option>
          ))}
        {filter.project && !projects.data?.some((p) => `${workspace?.team}/${p.name}` === filter.project) && <option value={filter.project}>{filter.project}</option>}
      </select>
      <select aria-label="Filter by model" value={filter.model ?? ""} onChange={(e) => onChange({ model: e.target.value || undefined })} className={SELECT}>
        <option value="">All models</option>
        {(models.data ?? []).map((m) => (
          <option key={m.id} value={m.id}>
            {m.id}
          </option>
        ))}
        {filter.model && !models.data?.some((m) => m.id === filter.model) && <option value={filter.model}>{filter.model}</option>}
      </select>
      <select aria-label="Filter by status" value={filter.status ?? ""} onChange={(e) => onChange({ status: (e.target.value || undefined) as CallStatus | undefined })} className={SELECT}>
        <option value="">All statuses</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <select
        aria-label="Time range"
        value={filter.range ?? ""}
        onChange={(e) => onChange({ range: (e.target.value || undefined) as CallLogFilter["range"], start: undefined, end: undefined })}
        className={SELECT}
      >
        <option value="">Any time</option>
        {(Object.keys(TIME_PRESETS) as TimePreset[]).map((preset) => (
          <option key={preset} value={preset}>
            {PRESET_LABELS[preset]}
          </option>
        ))}
        <option value="custom">Custom range…</option>
      </select>
      {filter.range === "custom" && (
        <>
          <input type="datetime-local" aria-label="From" value={toLocalInput(filter.start)} onChange={(e) => onChange({ start: fromLocalInput(e.target.value) })} className={SELECT} />
          <input type="datetime-local" aria-label="Until" value={toLocalInput(filter.end)} onChange={(e) => onChange({ end: fromLocalInput(e.target.value) })} className={SELECT} />
        </>
      )}
      <select aria-label="Filter by feedback" value={filter.has_feedback ?? ""} onChange={(e) => onChange({ has_feedback: (e.target.value || undefined) as CallLogFilter["has_feedback"] })} className={SELECT}>
        <option value="">With or without feedback</option>
        <option value="true">With feedback</option>
        <option value="false">Without feedback</option>
      </select>
      <select
        aria-label="Filter by feedback kind"
        value={kind}
        onChange={(e) => {
          const [type, value] = e.target.value.split("\n");
          onChange({ feedback_type: type || undefined, feedback_value: value || undefined });
        }}
        className={SELECT}
      >
        <option value="">Any kind of feedback</option>
        {kinds.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
