import { statValue } from "@/components/feedback/format";
import type { FeedbackStats } from "@/components/feedback/queries";
import type { MetricSpec } from "@/components/feedback/stats-selection";
import { metricStats } from "@/lib/client/feedback-stats";
import { metricSlug } from "@/lib/feedback/stats-metrics";

// The whole window at a glance: how many feedback rows it holds, and each metric's aggregations
// and percentiles over all of them (the API's window_stats, not an average of bucket values); a
// categorical count lists its categories.

const number = new Intl.NumberFormat("en");

function Card({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <section aria-label={label} className="rounded-xl border border-zinc-200 bg-white px-4 py-3 shadow-xs">
      {children}
    </section>
  );
}

export function WindowStats({ stats, metrics }: { stats: FeedbackStats; metrics: MetricSpec[] }) {
  const rows = stats.buckets.reduce((sum, bucket) => sum + Number(bucket.count), 0);
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Card label="Feedback rows in the window">
        <p className="text-xs font-medium text-zinc-500">Feedback rows</p>
        <p className="mt-1 text-xl font-semibold tracking-tight text-zinc-900 tabular-nums">{number.format(rows)}</p>
      </Card>
      {metrics.map((metric, i) => {
        const window = stats.window_stats[metricSlug(metric.json_path)] ?? {};
        return (
          <Card key={i} label={`Window stats of ${metric.json_path}`}>
            <p className="truncate font-mono text-xs font-medium text-zinc-500" title={metric.json_path}>
              {metric.json_path} <span className="font-sans text-zinc-400">({metric.value_type})</span>
            </p>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
              {metricStats(metric).flatMap((stat) => {
                const value = window[stat];
                const entries: [string, unknown][] = typeof value === "object" && value !== null ? Object.entries(value).map(([category, n]) => [`${stat}: ${category}`, n]) : [[stat, value]];
                return entries.map(([name, v]) => (
                  <div key={name} className="contents">
                    <dt className="truncate text-zinc-500">{name}</dt>
                    <dd className="font-semibold text-zinc-900 tabular-nums">{statValue(v)}</dd>
                  </div>
                ));
              })}
            </dl>
          </Card>
        );
      })}
    </div>
  );
}
