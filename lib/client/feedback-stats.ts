import { csvText } from "@/lib/contract/csv";
import { metricSlug, percentileName } from "@/lib/feedback/stats-metrics";

// A /feedback/stats answer shaped for the console's Feedback stats tab: a metric's columns and the
// buckets as CSV. A metric's values in a bucket are `<aggregation>_<slug>` and `p<P>_<slug>`; its
// window stats are under `<slug>`, keyed by the stat's name (`avg`, `p50`). A categorical metric's
// `count` is an object (category → rows): it becomes one column per category, `count_<slug>.<category>`
// (a slug never holds a dot, so the name is unambiguous).

export interface StatsMetric {
  json_path: string;
  aggregations: string[];
  percentiles: number[];
}

export interface StatsColumn {
  /** The flattened bucket's key, e.g. `avg_score`, `p95_score`, `count_label.good`. */
  key: string;
  /** The window stat's name: `avg`, `p95`, `count`. */
  stat: string;
  /** For a categorical count: the category. */
  category?: string;
}

export type FlatBucket = Record<string, string | number | null>;

/** The stats a metric asks for, by name: its aggregations, then its percentiles (`p95`). */
export const metricStats = (metric: StatsMetric) => [...metric.aggregations, ...metric.percentiles.map(percentileName)];

const isCounts = (value: unknown): value is Record<string, number> => typeof value === "object" && value !== null && !Array.isArray(value);

/** A bucket with each object of category counts spread into `<key>.<category>` columns. */
export function flattenBucket(bucket: Record<string, unknown>): FlatBucket {
  const flat: FlatBucket = {};
  for (const [key, value] of Object.entries(bucket)) {
    if (isCounts(value)) for (const [category, n] of Object.entries(value)) flat[`${key}.${category}`] = n;
    else flat[key] = (value as string | number | null | undefined) ?? null;
  }
  return flat;
}

/** The metric's columns in the buckets, in the order it asks for its stats; a categorical count
 *  expands to its categories (every bucket lists the same ones). */
export function metricColumns(metric: StatsMetric, buckets: Record<string, unknown>[]): StatsColumn[] {
  const slug = metricSlug(metric.json_path);
  return metricStats(metric).flatMap((stat): StatsColumn[] => {
    const key = `${stat}_${slug}`;
    const counts = buckets.map((b) => b[key]).find(isCounts);
    return counts ? Object.keys(counts).map((category) => ({ key: `${key}.${category}`, stat, category })) : [{ key, stat }];
  });
}

/** `timestamp,count,<each metric's columns>` then a line per bucket; empty values are empty cells. */
export function bucketsCsv(buckets: Record<string, unknown>[], metrics: StatsMetric[]): string {
  const columns = ["timestamp", "count", ...new Set(metrics.flatMap((m) => metricColumns(m, buckets).map((c) => c.key)))];
  const flat = buckets.map(flattenBucket);
  return csvText([columns, ...flat.map((bucket) => columns.map((column) => bucket[column]))]);
}
