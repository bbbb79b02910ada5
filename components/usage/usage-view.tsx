"use client";

import { BarChart3, FlaskConical } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useMe, useProjects, useWorkspace } from "@/components/identity/queries";
import { useUsage, type UsageQuery } from "@/components/inference/queries";
import { ProjectAreaChart, ProjectBarChart, projectColor } from "@/components/usage/usage-charts";
import { usageSeries, type TokenMetric } from "@/components/usage/usage-series";
import { Button } from "@/components/ui/button";
import { INPUT_CLASS } from "@/components/ui/field";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { Segmented } from "@/components/ui/segmented";
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";
import { Table, Td, Th, THead, Tr } from "@/components/ui/table";

// Inference usage over time: tokens and requests per project per day (GET /v1/usage), filtered
// by date range and team or project, with totals and a per-project, per-model table.

const PRESETS = [7, 14, 30, 90] as const;
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const number = new Intl.NumberFormat("en");

const TOKEN_METRICS: { value: TokenMetric; label: string }[] = [
  { value: "total_tokens", label: "Total" },
  { value: "prompt_tokens", label: "Prompt" },
  { value: "completion_tokens", label: "Completion" },
];

function Stat({ label, value, sub }: { label: string; value: string; sub?: string }) {
  return (
    <div className="rounded-xl border border-zinc-200 bg-white px-4 py-3 shadow-xs">
      <p className="text-xs font-medium text-zinc-500">{label}</p>
      <p className="mt-1 text-xl font-semibold tracking-tight text-zinc-900 tabular-nums">{value}</p>
      {sub && <p className="mt-0.5 text-xs text-zinc-500">{sub}</p>}
    </div>
  );
}

export function UsageView() {
  const { data: me } = useMe();
  const { data: workspace } = useWorkspace();
  const projects = useProjects(workspace?.team);
  const [start, setStart] = useState(() => daysAgo(13));
  const [end, setEnd] = useState(today);
  const [scope, setScope] = useState<string | null>(null); // "all" | "team:<t>" | "project:<t>/<p>"; null = the workspace's team
  const [metric, setMetric] = useState<TokenMetric>("total_tokens");

  const effectiveScope = scope ?? (workspace ? `team:${workspace.team}` : "all");
  const rangeError = !start || !end ? "Pick both dates" : start > end ? "The start must not be after the end" : null;
  const query: UsageQuery = {
    start,
    end,
    ...(effectiveScope.startsWith("team:") && { team: effectiveScope.slice(5) }),
    ...(effectiveScope.startsWith("project:") && { project: effectiveScope.slice(8) }),
  };
  const usage = useUsage(query, { enabled: !rangeError });
  const series = useMemo(() => (usage.data ? usageSeries(usage.data.data, usage.data.start, usage.data.end) : null), [usage.data]);
  const preset = PRESETS.find((n) => start === daysAgo(n - 1) && end === today()) ?? null;
  const teams = (me?.teams ?? []).filter((t) => t.role !== "annotator");
  const projectNames = Array.from(new Set(["default", ...(workspace ? [workspace.project] : []), ...(projects.data ?? []).map((p) => p.name)])).sort();

  const filters = (
    <div className="mb-5 flex flex-wrap items-end gap-3">
      <div>
        <span className="mb-1 block text-xs font-medium text-zinc-500">Range</span>
        <Segmented
          aria-label="Range"
          options={PRESETS.map((n) => ({ value: n, label: `${n} days` }))}
          value={preset}
          onChange={(n) => {
            setStart(daysAgo(n - 1));
            setEnd(today());
          }}
        />
      </div>
      <div className="flex items-end gap-1.5">
        <label className="block">
          <span className="mb-1 block text-xs font-medium text-zinc-500">From</span>
          <input type="date" value={start} max={end} onChange={(e) => setStart(e.target.value)} aria-invalid={rangeError ? true : undefined} className={`${INPUT_CLASS} py-1.5`} />
        </label>
        <span className="pb-2 text-zinc-400">–</span>
        <label className="block">
          <span className="mb-1 block text-xs font-medium text-zinc-500">To</span>
          <input type="date" value={end} min={start} onChange={(e) => setEnd(e.target.value)} aria-invalid={rangeError ? true : undefined} className={`${INPUT_CLASS} py-1.5`} />
        </label>
      </div>
      <label className="block min-w-56">
        <span className="mb-1 block text-xs font-medium text-zinc-500">Team or project</span>
        <select value={effectiveScope} onChange={(e) => setScope(e.target.value)} className={`${INPUT_CLASS} py-1.5 pr-8`}>
          <option value="all">All my teams</option>
          <optgroup label="Teams">
            {teams.map((t) => (
              <option key={t.name} value={`team:${t.name}`}>
                {t.name} (all projects)
              </option>
            ))}
          </optgroup>
          {workspace && (
            <optgroup label={`Projects in ${workspace.team}`}>
              {projectNames.map((p) => (
                <option key={p} value={`project:${workspace.team}/${p}`}>
                  {workspace.team}/{p}
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      {rangeError && (
        <p role="alert" className="pb-2 text-xs text-red-600">
          {rangeError}
        </p>
      )}
    </div>
  );

  if (usage.isError && !usage.data) {
    return (
      <>
        {filters}
        <Panel>
          <QueryError error={usage.error} retry={() => void usage.refetch()} what="usage" />
        </Panel>
      </>
    );
  }

  if (!series) {
    return (
      <>
        {filters}
        <div role="status" aria-label="Loading usage" className="space-y-4">
          <div className="grid grid-cols-4 gap-3">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} className="h-[74px] rounded-xl" />
            ))}
          </div>
          <Skeleton className="h-72 rounded-xl" />
        </div>
      </>
    );
  }

  const { totals } = series;
  const empty = totals.requests === 0;
  return (
    <>
      {filters}
      <div className={`transition-opacity ${usage.isFetching ? "opacity-70" : ""}`}>
        <div className="mb-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Stat label="Requests" value={number.format(totals.requests)} sub={`${series.projects.length} project${series.projects.length === 1 ? "" : "s"}`} />
          <Stat label="Errors" value={number.format(totals.errors)} sub={totals.requests ? `${((totals.errors / totals.requests) * 100).toFixed(1)}% of requests` : "—"} />
          <Stat label="Prompt tokens" value={number.format(totals.prompt_tokens)} sub={totals.requests ? `${number.format(Math.round(totals.prompt_tokens / totals.requests))} per request` : "—"} />
          <Stat label="Completion tokens" value={number.format(totals.completion_tokens)} sub={totals.requests ? `${number.format(Math.round(totals.completion_tokens / totals.requests))} per request` : "—"} />
        </div>
        {empty ? (
          <Panel>
            <div className="flex flex-col items-center px-8 py-14 text-center">
              <span className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-600 ring-1 ring-brand-100">
                <BarChart3 className="size-5" aria-hidden />
              </span>
              <h2 className="mt-3 text-sm font-semibold text-zinc-900">No chat completions in this range</h2>
              <p className="mt-1 max-w-md text-sm text-zinc-500">
                Every call to <code className="font-mono text-xs">/v1/chat/completions</code> counts here, by the project in its <code className="font-mono text-xs">Svc-Project</code> header (without one: a trained model&apos;s own project, else your default). Try a wider range, or run a prompt.
              </p>
              <Button asChild variant="secondary" size="sm" className="mt-4">
                <Link href="/playground">
                  <FlaskConical /> Open the playground
                </Link>
              </Button>
            </div>
          </Panel>
        ) : (
          <div className="space-y-4">
            <div className="grid gap-4 xl:grid-cols-2">
              <Panel title="Tokens per day" description="Stacked by project" actions={<Segmented aria-label="Token kind" options={TOKEN_METRICS} value={metric} onChange={setMetric} />}>
                <div className="px-2 pt-3 pb-2">
                  <ProjectAreaChart data={series.days.tokens[metric]} projects={series.projects} label={`${TOKEN_METRICS.find((m) => m.value === metric)?.label} tokens per day by project`} />
                </div>
              </Panel>
              <Panel title="Requests per day" description="Stacked by project">
                <div className="px-2 pt-3 pb-2">
                  <ProjectBarChart data={series.days.requests} projects={series.projects} label="Requests per day by project" />
                </div>
              </Panel>
            </div>
            <Panel title="By project and model" description={`${usage.data?.start} to ${usage.data?.end} (UTC days)`}>
              {usage.isFetching && !usage.data ? (
                <TableSkeleton />
              ) : (
                <Table label="Usage by project and model">
                  <THead>
                    <Th>Project</Th>
                    <Th>Model</Th>
                    <Th className="text-right">Requests</Th>
                    <Th className="text-right">Errors</Th>
                    <Th className="text-right">Prompt tokens</Th>
                    <Th className="text-right">Completion tokens</Th>
                    <Th className="text-right">Total tokens</Th>
                  </THead>
                  <tbody>
                    {series.byProjectModel.map((row) => (
                      <Tr key={`${row.project} ${row.model}`}>
                        <Td>
                          <span className="inline-flex items-center gap-2 font-medium text-zinc-900">
                            <span className="size-2 rounded-full" style={{ backgroundColor: projectColor(series.projects.indexOf(row.project)) }} aria-hidden />
                            {row.project}
                          </span>
                        </Td>
                        <Td className="font-mono text-[12px]">{row.model}</Td>
                        <Td className="text-right tabular-nums">{number.format(row.requests)}</Td>
                        <Td className={`text-right tabular-nums ${row.errors ? "text-red-600" : "text-zinc-400"}`}>{number.format(row.errors)}</Td>
                        <Td className="text-right tabular-nums">{number.format(row.prompt_tokens)}</Td>
                        <Td className="text-right tabular-nums">{number.format(row.completion_tokens)}</Td>
                        <Td className="text-right font-medium text-zinc-900 tabular-nums">{number.format(row.total_tokens)}</Td>
                      </Tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </Panel>
          </div>
        )}
      </div>
    </>
  );
}
