import type { Principal } from "@/lib/auth/principal";
import { badRequest } from "@/lib/contract/errors";
import { resolveFeedbackProject } from "./project-access";
import { canonicalizeRefText } from "./refs";
import { type StatsMetric, resolveMetrics } from "./stats-metrics";
import { queryCellStats } from "./stats-cells";
import { cellCover, cellsAnswer, MAX_AGGREGATED_DEPTH } from "./stats-cover";
import { type BucketResult, type CategoryRow, queryStats, type StatsResults, statKey } from "./stats-query";
import type { FeedbackStatsBody, FeedbackStatsResult } from "./stats-schema";
import type { StatsFilters } from "./stats-sql";
import { isKnownTimeZone, timeGrid } from "./stats-time-grid";

// POST /feedback/stats: a project's feedback aggregated over time buckets (docs in stats-schema.ts,
// stats-time-grid.ts and stats-metrics.ts). Every role of the team may read it, annotators
// included (feedback is theirs to see), as /feedback/query. Answered from the aggregate cells
// where they cover the request, with the rows of what they do not (stats-cover.ts), or from the
// rows alone; `source` says which (the route's x-anneal-stats-source header).

/** `cells`: cells only; `cells+rows`: cells and the rows of the edges they do not cover; `rows`:
 *  the raw statement (a trigger_ref filter, a range or zone the cells fit too little of, a path
 *  not aggregated). */
export type StatsSource = "cells" | "cells+rows" | "rows";
export const STATS_SOURCE_HEADER = "x-anneal-stats-source";

type StatValue = number | null | Record<string, number>;

/** Sums and counts of nothing are 0; an average, extreme or percentile of nothing is null. */
const emptyValue = (name: string): number | null => (name === "sum" || name.startsWith("count") ? 0 : null);

function statsFilters(projectId: string, body: FeedbackStatsBody, start: Date, end: Date): StatsFilters {
  const trigger = body.trigger_ref === undefined ? undefined : canonicalizeRefText(body.trigger_ref);
  return {
    projectId,
    start,
    end,
    feedbackType: body.feedback_type,
    // `<ref>:*` is every version of `<ref>`: refs starting with `<ref>:`.
    trigger: trigger === undefined ? undefined : trigger.endsWith(":*") ? { prefix: trigger.slice(0, -1) } : { exact: trigger },
  };
}

/** Each categorical metric's categories, most frequent first, and their rows per bucket index (null: the window). */
function categoryTables(rows: CategoryRow[]) {
  const tables = new Map<number, { categories: string[]; counts: Map<number | null, Map<string, number>> }>();
  for (const row of rows) {
    if (!tables.has(row.metric)) tables.set(row.metric, { categories: [], counts: new Map() });
    const counts = tables.get(row.metric)!.counts;
    if (!counts.has(row.b)) counts.set(row.b, new Map());
    counts.get(row.b)!.set(row.category, row.n);
  }
  for (const table of tables.values()) {
    table.categories = [...(table.counts.get(null) ?? new Map<string, number>())].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1)).map(([c]) => c);
  }
  return tables;
}

/** Each metric's stats in one bucket (or the window) as [name, value], in the order asked. */
function metricStats(metric: StatsMetric, i: number, bucket: BucketResult | undefined, b: number | null, categories: ReturnType<typeof categoryTables>): [string, StatValue][] {
  if (metric.valueType === "categorical") {
    const table = categories.get(i);
    const counts = table?.counts.get(b);
    return [["count", Object.fromEntries((table?.categories ?? []).map((c) => [c, counts?.get(c) ?? 0]))]];
  }
  const names = [...metric.aggregations, ...metric.percentiles.map((p) => p.name)];
  return names.map((name) => [name, bucket ? (bucket.stats.get(statKey(i, name)) ?? null) : emptyValue(name)]);
}

export interface StatsPlan {
  end: Date;
  granularity: number;
  bucketStarts: Date[];
  metrics: StatsMetric[];
  filters: StatsFilters;
}

/** A request checked (a 400 says what is wrong) and made into what the statement takes. */
export function planStats(projectId: string, body: FeedbackStatsBody, now = new Date()): StatsPlan {
  const { start, timezone } = body;
  const end = body.end ?? now;
  if (end <= start) throw badRequest(`end (${end.toISOString()}) must be after start (${start.toISOString()}).`);
  if (body.granularity !== undefined && body.granularity < 1) throw badRequest(`granularity must be at least 1 second, got ${body.granularity}.`);
  if (!isKnownTimeZone(timezone)) throw badRequest(`Unknown time zone '${timezone}': use an IANA name such as America/New_York, Asia/Kolkata or UTC.`);
  const metrics = resolveMetrics(body.metrics);
  const grid = timeGrid(start.getTime(), end.getTime(), body.granularity, timezone);
  return { end, granularity: grid.granularity, bucketStarts: grid.starts.map((t) => new Date(t)), metrics, filters: statsFilters(projectId, body, start, end) };
}

/** From the cells where they answer, else from the rows. */
async function statsResults({ filters, bucketStarts, metrics }: StatsPlan): Promise<{ results: StatsResults; source: StatsSource }> {
  const [start, end] = [filters.start.getTime(), filters.end.getTime()];
  const cover = cellCover(bucketStarts.map((d) => d.getTime()), start, end);
  const aggregated = filters.trigger === undefined && metrics.every((m) => m.keys.length <= MAX_AGGREGATED_DEPTH);
  if (aggregated && cellsAnswer(cover, start, end)) {
    const results = await queryCellStats({ filters, bucketStarts, metrics, cover });
    if (results) return { results, source: cover.raw.length > 0 ? "cells+rows" : "cells" };
  }
  return { results: await queryStats(filters, bucketStarts, metrics), source: "rows" };
}

export async function feedbackStats(principal: Principal, body: FeedbackStatsBody, now = new Date()): Promise<{ stats: FeedbackStatsResult; source: StatsSource }> {
  const access = await resolveFeedbackProject(principal, body.project_id, { write: false });
  const plan = planStats(access.project.id, body, now);
  const { end, granularity, bucketStarts, metrics } = plan;
  const { results, source } = await statsResults(plan);
  const categories = categoryTables(results.categories);

  const buckets = bucketStarts.map((start, index) => {
    const b = index + 1; // width_bucket numbers buckets from 1
    const result = results.buckets.get(b);
    const bucket: Record<string, string | StatValue> = { timestamp: start.toISOString(), count: result?.n ?? 0 };
    metrics.forEach((metric, i) => {
      for (const [name, value] of metricStats(metric, i, result, b, categories)) bucket[`${name}_${metric.slug}`] = value;
    });
    return bucket;
  });
  const window = results.buckets.get(null);
  const stats = {
    start: body.start.toISOString(),
    end: end.toISOString(),
    granularity,
    timezone: body.timezone,
    buckets,
    window_stats: Object.fromEntries(metrics.map((metric, i) => [metric.slug, Object.fromEntries(metricStats(metric, i, window, null, categories))])),
  };
  return { stats, source };
}
