"use client";

import { ChevronRight } from "lucide-react";
import { useMemo, useState } from "react";
import { logGroupsSnippet, Snippet } from "@/components/models/create-model-snippet";
import { metricSplits } from "@/lib/client/metric-series";
import { useModelMetrics, useTrajectoryGroups, type GroupFilter, type TrajectoryGroup } from "@/components/models/queries";
import { TrajectoryTranscript } from "@/components/models/trajectory-transcript";
import { INPUT_CLASS } from "@/components/ui/field";
import { LoadMoreFooter } from "@/components/ui/load-more-footer";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { RelativeTime } from "@/components/ui/relative-time";
import { TableSkeleton } from "@/components/ui/skeleton";

// Trajectory groups logged to the model (POST .../log), newest first, filtered by split and
// step; a group expands to each trajectory's conversation and reward.

const reward = new Intl.NumberFormat("en", { maximumSignificantDigits: 3 });

export function TrajectoryGroupsPanel({ modelId, origin }: { modelId: string; origin: string }) {
  const [filter, setFilter] = useState<GroupFilter>({});
  const groups = useTrajectoryGroups(modelId, filter);
  const metrics = useModelMetrics(modelId);
  const splits = useMemo(() => metricSplits(metrics.data ?? []), [metrics.data]);
  const steps = useMemo(() => (metrics.data ?? []).map((m) => m.step), [metrics.data]);
  const filtered = filter.split !== undefined || filter.step !== undefined;

  const filters = (
    <div className="flex items-center gap-2">
      <select
        aria-label="Filter by split"
        value={filter.split ?? ""}
        onChange={(e) => setFilter((f) => ({ ...f, split: e.target.value || undefined }))}
        className={`${INPUT_CLASS} w-auto py-1 text-[13px]`}
      >
        <option value="">All splits</option>
        {[...new Set([...splits, ...(filter.split ? [filter.split] : [])])].map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      <select
        aria-label="Filter by step"
        value={filter.step ?? ""}
        onChange={(e) => setFilter((f) => ({ ...f, step: e.target.value === "" ? undefined : Number(e.target.value) }))}
        className={`${INPUT_CLASS} w-auto py-1 text-[13px]`}
      >
        <option value="">All steps</option>
        {steps.map((s) => (
          <option key={s} value={s}>
            Step {s}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <Panel title="Logged trajectory groups" description="What the model answered and how it was rewarded, as logged by your code." actions={filters}>
      {groups.isPending ? (
        <TableSkeleton label="Loading trajectory groups" />
      ) : groups.isError ? (
        <QueryError what="trajectory groups" error={groups.error} retry={() => void groups.refetch()} />
      ) : groups.data.length === 0 ? (
        <div className="flex flex-col items-center px-6 py-8 text-center">
          <p className="text-sm font-medium text-zinc-800">{filtered ? "No groups match these filters" : "No trajectory groups logged yet"}</p>
          {!filtered && (
            <>
              <p className="mt-1 max-w-lg text-sm text-zinc-500">
                Log rollouts with ART&apos;s <code className="font-mono text-xs">model.log(groups, split=&quot;val&quot;)</code>, or post them directly. Their reward averages join the charts at the model&apos;s current step.
              </p>
              <Snippet label="Log trajectory groups from code" code={logGroupsSnippet(origin, modelId)} />
            </>
          )}
        </div>
      ) : (
        <>
          <ul className="divide-y divide-zinc-100">
            {groups.data.map((group) => (
              <GroupRow key={group.id} group={group} />
            ))}
          </ul>
          <LoadMoreFooter pages={groups} />
        </>
      )}
    </Panel>
  );
}

function GroupRow({ group }: { group: TrajectoryGroup }) {
  const [open, setOpen] = useState(false);
  return (
    <li data-testid="trajectory-group">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="flex w-full items-center gap-3 px-4 py-2.5 text-left text-sm hover:bg-zinc-50/60 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <ChevronRight className={`size-4 shrink-0 text-zinc-400 transition-transform ${open ? "rotate-90" : ""}`} aria-hidden />
        <span className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-[11px] text-zinc-700">{group.split}</span>
        <span className="text-zinc-600 tabular-nums">step {group.step}</span>
        <span className="text-zinc-900 tabular-nums">reward mean {reward.format(group.reward_mean)}</span>
        <span className="text-zinc-500">
          {group.trajectories.length} {group.trajectories.length === 1 ? "trajectory" : "trajectories"}
        </span>
        <span className="ml-auto text-xs text-zinc-400">
          <RelativeTime iso={group.created_at} />
        </span>
      </button>
      {open && (
        <div className="grid gap-2 bg-zinc-50/60 px-4 pt-1 pb-4 lg:grid-cols-2">
          {group.trajectories.map((trajectory, i) => (
            <TrajectoryTranscript key={i} trajectory={trajectory} index={i} />
          ))}
        </div>
      )}
    </li>
  );
}
