"use client";

import { ANNOTATION_PREFIX, NOTE, REACTION } from "@/components/calls/feedback";
import { TIME_PRESETS, useAnnotationSpecs, type TimePreset } from "@/components/calls/queries";
import { CommitInput } from "@/components/feedback/commit-input";
import { granularityLabel } from "@/components/feedback/format";
import { Labelled } from "@/components/feedback/labelled";
import type { RangeChoice, StatsSelection } from "@/components/feedback/stats-selection";
import { useProjects, useWorkspace } from "@/components/identity/queries";
import { INPUT_CLASS } from "@/components/ui/field";
import { fromWallTime, wallTime } from "@/lib/client/zoned-time";

// What the stats cover: the project, the time range (a rolling preset or a custom range in the
// chosen timezone), the feedback type and trigger filters, the bucket size and the timezone
// buckets are aligned to. Controlled: the tab keeps them in its URL.

const PRESET_LABELS: Record<TimePreset, string> = { "1h": "Last hour", "24h": "Last 24 hours", "7d": "Last 7 days", "30d": "Last 30 days" };
/** Bucket sizes offered besides Auto (seconds); the API raises one that would make over 10,000 buckets. */
const GRANULARITIES = [60, 300, 900, 3_600, 21_600, 43_200, 86_400, 604_800];
const CONTROL = `${INPUT_CLASS} h-9 py-1.5`;

/** Every IANA zone the browser knows, with the current choice and UTC always present. */
function timezones(current: string): string[] {
  return [...new Set(["UTC", current, ...Intl.supportedValuesOf("timeZone")])].sort();
}

export function StatsFilters({
  selection,
  timezone,
  autoGranularity,
  onChange,
}: {
  selection: StatsSelection;
  timezone: string;
  /** The granularity the API chose for Auto, once it answered. */
  autoGranularity: number | undefined;
  onChange: (patch: Partial<StatsSelection>) => void;
}) {
  const { data: workspace } = useWorkspace();
  const projects = useProjects(workspace?.team);
  const specs = useAnnotationSpecs(selection.project);
  const projectNames = (projects.data ?? []).map((p) => `${workspace?.team}/${p.name}`);
  if (selection.project && !projectNames.includes(selection.project)) projectNames.unshift(selection.project);
  const knownTypes = [REACTION, NOTE, ...(specs.data ?? []).map((spec) => `${ANNOTATION_PREFIX}${spec.name}`)];

  function chooseRange(range: RangeChoice) {
    if (range !== "custom") return onChange({ range, start: undefined, end: undefined });
    // A custom range starts as the preset it replaces, so there is something to edit.
    const now = Date.now();
    const width = selection.range === "custom" ? 86_400_000 : TIME_PRESETS[selection.range];
    onChange({ range, start: new Date(now - width).toISOString(), end: new Date(now).toISOString() });
  }

  const customInvalid = selection.range === "custom" && (!selection.start || !selection.end || Date.parse(selection.end) <= Date.parse(selection.start));

  return (
    <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Stats filters">
      <Labelled label="Project" className="min-w-48">
        {(id) => (
          <select id={id} value={selection.project ?? ""} onChange={(e) => onChange({ project: e.target.value })} className={`${CONTROL} pr-8`}>
            {projectNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      <Labelled label="Time range">
        {(id) => (
          <select id={id} value={selection.range} onChange={(e) => chooseRange(e.target.value as RangeChoice)} className={`${CONTROL} pr-8`}>
            {(Object.keys(TIME_PRESETS) as TimePreset[]).map((preset) => (
              <option key={preset} value={preset}>
                {PRESET_LABELS[preset]}
              </option>
            ))}
            <option value="custom">Custom range…</option>
          </select>
        )}
      </Labelled>
      {selection.range === "custom" && (
        <>
          <Labelled label={`From (${timezone})`}>
            {(id) => (
              <input
                id={id}
                type="datetime-local"
                value={selection.start ? wallTime(selection.start, timezone) : ""}
                onChange={(e) => onChange({ start: fromWallTime(e.target.value, timezone) })}
                aria-invalid={customInvalid || undefined}
                className={CONTROL}
              />
            )}
          </Labelled>
          <Labelled label={`Until (${timezone})`}>
            {(id) => (
              <input
                id={id}
                type="datetime-local"
                value={selection.end ? wallTime(selection.end, timezone) : ""}
                onChange={(e) => onChange({ end: fromWallTime(e.target.value, timezone) })}
                aria-invalid={customInvalid || undefined}
                className={CONTROL}
              />
            )}
          </Labelled>
        </>
      )}
      <Labelled label="Feedback type" className="w-56">
        {(id) => (
          <>
            <CommitInput id={id} value={selection.feedback_type ?? ""} onCommit={(v) => onChange({ feedback_type: v || undefined })} list={`${id}-types`} placeholder="Any type" className={CONTROL} />
            <datalist id={`${id}-types`}>
              {knownTypes.map((type) => (
                <option key={type} value={type} />
              ))}
            </datalist>
          </>
        )}
      </Labelled>
      <Labelled label="Trigger ref" className="w-72">
        {(id) => (
          <CommitInput id={id} value={selection.trigger_ref ?? ""} onCommit={(v) => onChange({ trigger_ref: v || undefined })} placeholder="svc:///team/project/object/name:*" className={`${CONTROL} font-mono text-xs`} />
        )}
      </Labelled>
      <Labelled label="Granularity">
        {(id) => (
          <select id={id} value={selection.granularity ?? ""} onChange={(e) => onChange({ granularity: e.target.value ? Number(e.target.value) : undefined })} className={`${CONTROL} pr-8`}>
            <option value="">Auto{autoGranularity && !selection.granularity ? ` (${granularityLabel(autoGranularity)})` : ""}</option>
            {GRANULARITIES.map((seconds) => (
              <option key={seconds} value={seconds}>
                {granularityLabel(seconds)}
              </option>
            ))}
            {selection.granularity && !GRANULARITIES.includes(selection.granularity) && <option value={selection.granularity}>{granularityLabel(selection.granularity)}</option>}
          </select>
        )}
      </Labelled>
      <Labelled label="Timezone" className="w-52">
        {(id) => (
          <select id={id} value={timezone} onChange={(e) => onChange({ timezone: e.target.value })} className={`${CONTROL} pr-8`}>
            {timezones(timezone).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        )}
      </Labelled>
      {customInvalid && (
        <p role="alert" className="pb-2 text-xs text-red-600">
          Pick a start before the end.
        </p>
      )}
    </div>
  );
}
