"use client";

import { Download, LineChart, RefreshCw } from "lucide-react";
import { useMemo, useSyncExternalStore } from "react";
import { FeedbackRowsTable } from "@/components/feedback/feedback-rows-table";
import { granularityLabel } from "@/components/feedback/format";
import { MetricBuilder } from "@/components/feedback/metric-builder";
import { REFRESH_MS, useFeedbackStats, usePayloadKeys, useRefreshFeedback, type FeedbackStats } from "@/components/feedback/queries";
import { CountChart, MetricChart } from "@/components/feedback/stats-charts";
import { SpecMetricPicker } from "@/components/feedback/spec-metric-picker";
import { StatsFilters } from "@/components/feedback/stats-filters";
import type { MetricSpec, StatsSelection } from "@/components/feedback/stats-selection";
import { useStatsSelection } from "@/components/feedback/use-stats-selection";
import { WindowStats } from "@/components/feedback/window-stats";
import { useWorkspace } from "@/components/identity/queries";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Panel } from "@/components/ui/panel";
import { QueryError } from "@/components/ui/query-error";
import { Skeleton } from "@/components/ui/skeleton";
import { downloadText } from "@/lib/client/download";
import { bucketsCsv, flattenBucket, metricColumns } from "@/lib/client/feedback-stats";

// Stats → Feedback: feedback over time for a project. Pick the range and filters, chart an
// annotation spec by name or build metrics from payload keys, and read a chart per metric, the window's stats and the rows behind them;
// download the buckets as CSV. Everything re-reads every 10 s, so new feedback appears.

const noSubscription = () => () => {};
/** The browser's IANA zone (UTC while rendering on the server). */
const useBrowserTimezone = () => useSyncExternalStore(noSubscription, () => Intl.DateTimeFormat().resolvedOptions().timeZone, () => "UTC");

/** `feedback-stats-<team>-<project>-<start, UTC, to the minute>.csv` */
function downloadCsv(stats: FeedbackStats, metrics: MetricSpec[], project: string) {
  downloadText(bucketsCsv(stats.buckets, metrics), `feedback-stats-${project.replace("/", "-")}-${stats.start.slice(0, 16).replace(":", "")}.csv`, "text/csv;charset=utf-8");
}

const updatedAt = (ms: number) => new Date(ms).toLocaleTimeString("en", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });

export function FeedbackStatsView() {
  const [chosen, change] = useStatsSelection();
  const { data: workspace } = useWorkspace();
  const browserTimezone = useBrowserTimezone();
  const selection: StatsSelection = { ...chosen, project: chosen.project ?? (workspace ? `${workspace.team}/${workspace.project}` : undefined) };
  const timezone = selection.timezone ?? browserTimezone;
  const stats = useFeedbackStats(selection, timezone);
  const keys = usePayloadKeys(selection);
  const refresh = useRefreshFeedback();

  const shown = stats.data;
  const buckets = useMemo(() => shown?.buckets.map(flattenBucket) ?? [], [shown]);
  return (
    <div className="space-y-4">
      <Panel>
        <div className="px-4 py-3">
          <StatsFilters selection={selection} timezone={timezone} autoGranularity={shown?.granularity} onChange={change} />
        </div>
      </Panel>
      <Panel title="Metrics" description="Payload values to aggregate per bucket.">
        <div className="px-4 py-3">
          {keys.isError ? (
            <QueryError what="the payload keys" error={keys.error} retry={() => void keys.refetch()} />
          ) : (
            <div className="space-y-3">
              <SpecMetricPicker selection={selection} onChange={change} />
              <MetricBuilder metrics={selection.metrics} keys={keys.data} onChange={(metrics) => change({ metrics })} />
            </div>
          )}
        </div>
      </Panel>
      {stats.isError ? (
        <Panel>
          <QueryError what="the feedback stats" error={stats.error} retry={() => void stats.refetch()} />
        </Panel>
      ) : !shown && stats.fetchStatus === "idle" ? null : !shown ? (
        <div role="status" aria-label="Loading feedback stats" className="space-y-4">
          <Skeleton className="h-[74px] rounded-xl" />
          <Skeleton className="h-56 rounded-xl" />
        </div>
      ) : (
        <div className={`space-y-4 transition-opacity ${stats.isPlaceholderData ? "opacity-60" : ""}`}>
          <WindowStats stats={shown} metrics={selection.metrics} />
          <Panel
            title="Feedback per bucket"
            description={`${granularityLabel(shown.granularity)} buckets in ${shown.timezone} · updated ${updatedAt(stats.dataUpdatedAt)}, every ${REFRESH_MS / 1000} s`}
            actions={
              <>
                <Button variant="ghost" size="sm" onClick={() => void refresh()} disabled={stats.isFetching}>
                  <RefreshCw className={stats.isFetching ? "animate-spin" : ""} /> Refresh
                </Button>
                <Button variant="secondary" size="sm" onClick={() => downloadCsv(shown, selection.metrics, selection.project ?? "")}>
                  <Download /> Download CSV
                </Button>
              </>
            }
          >
            <div className="px-2 pt-3 pb-2">
              <CountChart buckets={buckets} timezone={shown.timezone} granularity={shown.granularity} />
            </div>
          </Panel>
          {selection.metrics.length === 0 ? (
            <Panel>
              <EmptyState icon={LineChart} title="No metrics yet">
                Add a metric above to chart a payload value (a score, a thumbs count, a category) over time.
              </EmptyState>
            </Panel>
          ) : (
            <div className="grid gap-4 xl:grid-cols-2">
              {selection.metrics.map((metric, i) => (
                <Panel key={i} title={<span className="font-mono">{metric.json_path}</span>} description={metric.value_type}>
                  <div className="px-2 pt-3 pb-2">
                    <MetricChart
                      label={`${metric.json_path} per bucket`}
                      columns={metricColumns(metric, shown.buckets)}
                      buckets={buckets}
                      timezone={shown.timezone}
                      granularity={shown.granularity}
                    />
                  </div>
                </Panel>
              ))}
            </div>
          )}
        </div>
      )}
      <Panel title="Feedback" description="The rows behind the stats, newest first.">
        <FeedbackRowsTable selection={selection} timezone={timezone} />
      </Panel>
    </div>
  );
}
