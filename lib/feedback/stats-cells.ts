import { getDatabase } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { CellCover } from "./stats-cover";
import { Histogram } from "./stats-histogram";
import { MAX_CATEGORIES, type StatsMetric } from "./stats-metrics";
import { type BucketResult, type CategoryRow, inStatsSession, overflowError, statsQueryError, type StatsResults, statKey } from "./stats-query";
import { readValue, rowFilters, type StatsFilters } from "./stats-sql";

// POST /feedback/stats from the aggregate cells (stats-cover.ts says which) and the rows of the
// ranges they do not cover, merged here: each cell and each row adds to its bucket's partials
// (rows; per metric: count, sum, extremes and histogram of numbers, trues and falses, categories),
// and the buckets add up to the window. A cell's sum is exact (numeric), read as the nearest double.
// The request reads a cell per span of each level, of its metrics' paths and of the row counts
// (path ''), of its feedback type or of all types ('') — never a cell per type or trigger.
// Undefined when the cells do not answer: a payload in range had more values than aggregated, or
// a categorical metric's cell dropped its categories (a long string, too many of them).

export interface CellsQuery {
  filters: StatsFilters;
  bucketStarts: Date[];
  metrics: StatsMetric[];
  cover: CellCover;
}

interface Partials {
  count: number;
  sum: number;
  lo: number | null;
  hi: number | null;
  histogram: Histogram | undefined;
  trues: number;
  falses: number;
  categories: Map<string, number> | undefined;
}

class Bucket {
  n = 0;
  metrics: Partials[];
  constructor(metrics: StatsMetric[]) {
    this.metrics = metrics.map((m) => ({
      count: 0, sum: 0, lo: null, hi: null, trues: 0, falses: 0,
      histogram: m.percentiles.length > 0 ? new Histogram() : undefined,
      categories: m.valueType === "categorical" ? new Map() : undefined,
    }));
  }

  addNumbers(i: number, count: number, sum: number, lo: number | null, hi: number | null) {
    const p = this.metrics[i];
    p.count += count;
    p.sum += sum;
    if (lo !== null) p.lo = p.lo === null ? lo : Math.min(p.lo, lo);
    if (hi !== null) p.hi = p.hi === null ? hi : Math.max(p.hi, hi);
  }

  addCategory(i: number, category: string, n: number) {
    const categories = this.metrics[i].categories!;
    categories.set(category, (categories.get(category) ?? 0) + n);
  }

  merge(other: Bucket) {
    this.n += other.n;
    other.metrics.forEach((p, i) => {
      this.addNumbers(i, p.count, p.sum, p.lo, p.hi);
      if (p.histogram) this.metrics[i].histogram!.merge(p.histogram);
      this.metrics[i].trues += p.trues;
      this.metrics[i].falses += p.falses;
      if (p.categories) for (const [category, n] of p.categories) this.addCategory(i, category, n);
    });
  }
}

/** Aggregation `name` of a metric from its partials, as stats-sql.ts' combine() in SQL. */
function aggregate(metric: StatsMetric, p: Partials, name: string): number | null {
  if (metric.valueType === "numeric") {
    switch (name) {
      case "sum": return p.sum;
      case "avg": return p.count > 0 ? p.sum / p.count : null;
      case "min": return p.lo;
      case "max": return p.hi;
      case "count": return p.count;
    }
  } else {
    const { trues: t, falses: f } = p;
    switch (name) {
      case "count_true": case "sum": return t;
      case "count_false": return f;
      case "count": return t + f;
      case "avg": return t + f > 0 ? t / (t + f) : null;
      case "min": return f > 0 ? 0 : t > 0 ? 1 : null;
      case "max": return t > 0 ? 1 : f > 0 ? 0 : null;
    }
  }
  throw new Error(`no ${name} for ${metric.valueType} metrics`);
}

function bucketResult(bucket: Bucket, metrics: StatsMetric[]): BucketResult {
  const stats = new Map<string, number | null>();
  metrics.forEach((metric, i) => {
    if (metric.valueType === "categorical") return;
    const p = bucket.metrics[i];
    // As the raw statement's arithmetic in double precision, a 400 past ±1.8e308.
    const finite = (value: number | null) => {
      if (value !== null && !Number.isFinite(value)) throw overflowError(metrics);
      return value;
    };
    for (const name of metric.aggregations) stats.set(statKey(i, name), finite(aggregate(metric, p, name)));
    for (const { fraction, name } of metric.percentiles) {
      stats.set(statKey(i, name), p.count > 0 ? finite(p.histogram!.percentile(fraction, p.count, p.lo!, p.hi!)) : null);
    }
  });
  return { n: bucket.n, stats };
}

/** The 1-based bucket of an instant: the last start at or before it (width_bucket's). */
function bucketIndex(starts: number[], t: number): number {
  let [lo, hi] = [0, starts.length - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

/** A cell as the query sends it: one JSON array per cell, all in one JSON value — reading a
 *  column per cell field costs PGlite about 5 µs per value, most of a request's time. The row
 *  counts' cells (path '') send only the rows and partial ones; a categorical metric's only its
 *  categories; the others no categories, and a histogram only where the metric has percentiles. */
type CellRow = [
  start: number, path: string, rows: number, partial: number, numbers: number,
  /** Null past double precision. */
  sum: number | null,
  lo: number | null, hi: number | null,
  /** ARRAY[bins, counts], for metrics with percentiles. */
  histogram: [number[], number[]] | null,
  trues: number, falses: number,
  /** For categorical metrics. */
  categories: Record<string, number> | null,
  overflow: boolean,
];

const instants = (ms: number[]) => `{${ms.map((t) => new Date(t).toISOString()).join(",")}}`;
const texts = (items: string[]) => `{${items.map((p) => JSON.stringify(p)).join(",")}}`;

async function readCells({ filters, metrics, cover }: CellsQuery): Promise<CellRow[]> {
  const query = getDatabase().sql.query<{ cells: CellRow[] | null }>(
    `SELECT json_agg(CASE
         WHEN c.path = '' THEN json_build_array(extract(epoch FROM c.start) * 1000, c.path, c.rows, c.partial)
         WHEN c.path = ANY($6::text[]) THEN json_build_array(extract(epoch FROM c.start) * 1000, c.path, c.rows, 0, c.numbers,
           CASE WHEN abs(c.sum) <= 1.7976931348623157e308 THEN c.sum::float8 END, c.lo, c.hi, c.histogram, c.trues, c.falses, NULL, c.overflow)
         WHEN c.path = ANY($7::text[]) THEN json_build_array(extract(epoch FROM c.start) * 1000, c.path, c.rows, 0, 0, 0, NULL, NULL, NULL, 0, 0, c.categories, c.overflow)
         ELSE json_build_array(extract(epoch FROM c.start) * 1000, c.path, c.rows, 0, c.numbers,
           CASE WHEN abs(c.sum) <= 1.7976931348623157e308 THEN c.sum::float8 END, c.lo, c.hi, NULL, c.trues, c.falses, NULL, c.overflow)
       END) AS cells
     FROM unnest($3::int[], $4::timestamptz[], $5::timestamptz[]) AS span(level, lo, hi)
     JOIN "FeedbackStatCell" c ON c."projectId" = $1::uuid AND c."feedbackType" = $2 AND c.path = ANY($8::text[])
       AND c.level = span.level AND c.start >= span.lo AND c.start < span.hi`,
    [
      filters.projectId,
      filters.feedbackType ?? "",
      `{${cover.cells.map((s) => s.level).join(",")}}`,
      instants(cover.cells.map((s) => s.from)),
      instants(cover.cells.map((s) => s.to)),
      texts(metrics.filter((m) => m.percentiles.length > 0).map((m) => m.jsonPath)),
      texts(metrics.filter((m) => m.valueType === "categorical").map((m) => m.jsonPath)),
      texts(["", ...metrics.map((m) => m.jsonPath)]),
    ],
  );
  const [{ cells }] = await query.catch(statsQueryError(metrics));
  return cells ?? [];
}

interface EdgeRow {
  at: Date;
  [value: `m${number}` | `bin${number}`]: number | boolean | string | null;
}

/** The rows of the spans the cells do not cover, with each metric's value (and a number's bin). */
async function readEdgeRows({ filters, metrics, cover }: CellsQuery): Promise<EdgeRow[]> {
  if (cover.raw.length === 0) return [];
  const values = metrics.flatMap((metric, i) => {
    const value = Prisma.sql`${readValue(metric)} AS ${Prisma.raw(`m${i}`)}`;
    return metric.percentiles.length > 0 ? [value, Prisma.sql`feedback_stat_bin(${readValue(metric)}) AS ${Prisma.raw(`bin${i}`)}`] : [value];
  });
  return inStatsSession<EdgeRow>(Prisma.sql`
    SELECT ${Prisma.join([Prisma.sql`f."createdAt" AS at`, ...values])}
    FROM unnest(${instants(cover.raw.map((s) => s.from))}::timestamptz[], ${instants(cover.raw.map((s) => s.to))}::timestamptz[]) AS span(lo, hi)
    JOIN "Feedback" f ON ${rowFilters(filters)} AND f."createdAt" >= span.lo AND f."createdAt" < span.hi`).catch(statsQueryError(metrics));
}

export async function queryCellStats(query: CellsQuery): Promise<StatsResults | undefined> {
  const { metrics } = query;
  const starts = query.bucketStarts.map((d) => d.getTime());
  // The notes of committed writes not yet in the cells (the migration's feedback_stats_fold), first.
  await getDatabase().sql.query("SELECT feedback_stats_fold($1::uuid, true)", [query.filters.projectId]).catch(statsQueryError(metrics));
  const cells = await readCells(query);
  const metricOf = new Map(metrics.map((m, i) => [m.jsonPath, i]));
  if (cells.some(([, path, , partial, , , , , , , , , overflow]) => partial > 0 || (overflow && metrics[metricOf.get(path) ?? -1]?.valueType === "categorical"))) return undefined;

  const buckets = new Map<number, Bucket>();
  const bucketAt = (t: number) => {
    const b = bucketIndex(starts, t);
    return buckets.get(b) ?? buckets.set(b, new Bucket(metrics)).get(b)!;
  };
  for (const [start, path, rows, , numbers, sum, lo, hi, histogram, trues, falses, categories] of cells) {
    const bucket = bucketAt(start);
    if (path === "") {
      bucket.n += rows;
      continue;
    }
    const i = metricOf.get(path)!;
    // A cell holds every kind of value found at its path; the metric reads its own.
    switch (metrics[i].valueType) {
      case "numeric":
        if (sum === null) throw overflowError(metrics);
        bucket.addNumbers(i, numbers, sum, lo, hi);
        if (histogram) bucket.metrics[i].histogram?.add({ bins: histogram[0], counts: histogram[1] });
        break;
      case "boolean":
        bucket.metrics[i].trues += trues;
        bucket.metrics[i].falses += falses;
        break;
      case "categorical":
        for (const [category, n] of Object.entries(categories ?? {})) bucket.addCategory(i, category, n);
    }
  }
  for (const row of await readEdgeRows(query)) {
    const bucket = bucketAt(row.at.getTime());
    bucket.n += 1;
    // Each metric's value as its type reads it (readValue): a number, a boolean, a string or null.
    metrics.forEach((_, i) => {
      const value = row[`m${i}`];
      if (value === null) return;
      if (typeof value === "number") {
        bucket.addNumbers(i, 1, value, value, value);
        bucket.metrics[i].histogram?.add({ bins: [row[`bin${i}`] as number], counts: [1] });
      } else if (typeof value === "boolean") bucket.metrics[i][value ? "trues" : "falses"] += 1;
      else bucket.addCategory(i, value, 1);
    });
  }

  const window = new Bucket(metrics);
  for (const bucket of buckets.values()) window.merge(bucket);
  const results = new Map<number | null, BucketResult>([[null, bucketResult(window, metrics)]]);
  for (const [b, bucket] of buckets) results.set(b, bucketResult(bucket, metrics));
  return { buckets: results, categories: categoryRows(metrics, buckets, window) };
}

/** Each categorical metric's MAX_CATEGORIES most frequent categories over the window (ties by
 *  value), in the window and in each bucket, as the raw statement gives them. */
function categoryRows(metrics: StatsMetric[], buckets: Map<number, Bucket>, window: Bucket): CategoryRow[] {
  const rows: CategoryRow[] = [];
  metrics.forEach((metric, i) => {
    if (metric.valueType !== "categorical") return;
    const top = [...window.metrics[i].categories!].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1)).slice(0, MAX_CATEGORIES);
    for (const [category, n] of top) {
      rows.push({ b: null, metric: i, category, n });
      for (const [b, bucket] of buckets) {
        const count = bucket.metrics[i].categories!.get(category);
        if (count) rows.push({ b, metric: i, category, n: count });
      }
    }
  });
  return rows;
}
