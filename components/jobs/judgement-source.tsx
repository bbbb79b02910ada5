"use client";

import { useAnnotationSpecs, type AnnotationSpec } from "@/components/calls/queries";
import { useProjects, useWorkspace } from "@/components/identity/queries";
import { useModels } from "@/components/inference/queries";
import { useTeamQueues } from "@/components/queues/queries";
import { CheckboxLabel, SelectField } from "@/components/ui/field";

// Where training data from human judgement comes from: a queue of the workspace team (its items,
// judged in the queue), or a project's calls (optionally those one model served), judged by any
// annotation. The launch forms send it as the API's queue_id (with accepted_only when only the
// items a reviewer accepted may be used), or project + filter.

export type JudgedSource = { kind: "queue"; queueId: string; acceptedOnly: boolean } | { kind: "calls"; project: string; model: string };

export const EMPTY_SOURCE: JudgedSource = { kind: "queue", queueId: "", acceptedOnly: false };

/** The request fields for a source; null until it names something. */
export function sourceBody(source: JudgedSource): { queue_id: string; accepted_only?: true } | { project: string; filter?: { model: string } } | null {
  if (source.kind === "queue") return source.queueId ? { queue_id: source.queueId, ...(source.acceptedOnly ? { accepted_only: true as const } : {}) } : null;
  if (!source.project) return null;
  return source.model ? { project: source.project, filter: { model: source.model } } : { project: source.project };
}

/** The source's project's specs (to pick the rule's, the reward's and the corrected reply's). */
export function useSourceSpecs(source: JudgedSource): AnnotationSpec[] {
  const { data: workspace } = useWorkspace();
  const queues = useTeamQueues(workspace?.team);
  const project = source.kind === "queue" ? queues.data?.find((q) => q.id === source.queueId)?.project : source.project || undefined;
  return useAnnotationSpecs(project).data ?? [];
}

/** The queue's own corrected-reply spec (the first it asks for), to preselect; null for other sources. */
export function useSourceCorrectedSpec(): (source: JudgedSource) => string | null {
  const { data: workspace } = useWorkspace();
  const queues = useTeamQueues(workspace?.team);
  return (source) => {
    if (source.kind !== "queue") return null;
    return queues.data?.find((q) => q.id === source.queueId)?.specs.find((spec) => spec.type === "corrected_reply")?.name ?? "";
  };
}

export function JudgedSourceFields({ value, onChange }: { value: JudgedSource; onChange: (source: JudgedSource) => void }) {
  const { data: workspace } = useWorkspace();
  const queues = useTeamQueues(workspace?.team);
  const projects = useProjects(workspace?.team);
  const models = useModels();
  const queue = value.kind === "queue" ? queues.data?.find((q) => q.id === value.queueId) : undefined;
  return (
    <div className="grid grid-cols-3 items-end gap-3">
      <SelectField
        label="Judged calls from"
        value={value.kind}
        onChange={(e) => onChange(e.target.value === "queue" ? EMPTY_SOURCE : { kind: "calls", project: "", model: "" })}
      >
        <option value="queue">an annotation queue</option>
        <option value="calls">a project&apos;s calls</option>
      </SelectField>
      {value.kind === "queue" ? (
        <>
          <SelectField
            label="Queue"
            value={value.queueId}
            onChange={(e) => onChange({ kind: "queue", queueId: e.target.value, acceptedOnly: Boolean(e.target.value) && value.acceptedOnly })}
            className="col-span-2"
          >
            <option value="">{queues.isPending ? "Loading…" : "Choose a queue"}</option>
            {(queues.data ?? []).map((q) => (
              <option key={q.id} value={q.id}>
                {q.name} ({q.project}, {q.counts.completed}/{q.counts.total} done)
              </option>
            ))}
          </SelectField>
          {/* Reviews are of a queue's items: without a queue there is nothing to require. */}
          <div className="col-span-3 -mt-2 flex items-center gap-3">
            <CheckboxLabel
              label="Only items a reviewer accepted"
              checked={value.acceptedOnly}
              disabled={!value.queueId}
              onChange={(acceptedOnly) => onChange({ ...value, acceptedOnly })}
            />
            {queue && (
              <span className="text-xs tabular-nums text-zinc-500">
                {queue.counts.accepted} of {queue.counts.total} items accepted
              </span>
            )}
          </div>
        </>
      ) : (
        <>
          <SelectField label="Project" value={value.project} onChange={(e) => onChange({ ...value, project: e.target.value })}>
            <option value="">Choose a project</option>
            {workspace &&
              (projects.data ?? []).map((p) => (
                <option key={p.name} value={`${workspace.team}/${p.name}`}>
                  {workspace.team}/{p.name}
                </option>
              ))}
          </SelectField>
          <SelectField label="Served by" value={value.model} onChange={(e) => onChange({ ...value, model: e.target.value })}>
            <option value="">Any model</option>
            {(models.data ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.id}
              </option>
            ))}
          </SelectField>
        </>
      )}
    </div>
  );
}
