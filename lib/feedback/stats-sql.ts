import { Prisma } from "@/lib/db/generated/client";
import { MAX_CATEGORIES, type StatsMetric } from "./stats-metrics";

// The statement of POST /feedback/stats, the same on PostgreSQL and PGlite. Its rows are the
// aggregates only, of three kinds:
//   't'  per bucket (b = 1..n) and for the window (b NULL): row count `n` and, in `v`, each
//        aggregation of each numeric and boolean metric (aggregateSlots' order);
//   'p'  per bucket and for the window: each percentile of each numeric metric (percentileSlots');
//   'c'  per categorical metric, category and bucket (b NULL: the window): rows `n`, for the
//        metric's MAX_CATEGORIES most frequent categories.
//
// One scan of the range reads each metric's value once per row (`rows`, a subquery kept whole by
// OFFSET 0: flattened, the planner would copy a value's expression into every aggregate that takes
// it, and evaluate each copy). A row's bucket is width_bucket(created_at, <bucket starts>), a binary
// search over the starts stats-time-grid.ts computed: no time zone arithmetic per row. One hash
// aggregation folds the rows into "cells" — per bucket, and per category of each categorical metric
// — of partial results (counts, sums, minima, maxima, and the values of metrics with percentiles)
// that the buckets and the window combine. Percentiles unnest the cells' values in bucket order, so
// only each bucket's values and the window's are sorted, never every row by its bucket. The scan
// may run in parallel workers (stats-query.ts sets the session up for it).
//
// Measured on 1M rows (bench:stats, PostgreSQL 15, 2 CPUs): the scan and the JSON reads are most of
// the time. Materialising the rows for two aggregations, reading them twice, sort-based grouping
// for the percentiles, and keeping booleans and categories as JSON were each slower.

export interface StatsFilters {
  projectId: string;
  start: Date;
  end: Date;
  feedbackType?: string;
  /** Exact trigger_ref, or every ref starting with `prefix` (which ends in `:`). */
  trigger?: { exact: string } | { prefix: string };
}

/** A stat of metric `metric` (its index in the request) named `name` (`avg`, `p95`). */
export interface Slot {
  metric: number;
  name: string;
}

export const aggregateSlots = (metrics: StatsMetric[]): Slot[] =>
  metrics.flatMap((m, i) => (m.valueType === "categorical" ? [] : m.aggregations.map((name) => ({ metric: i, name }))));

export const percentileSlots = (metrics: StatsMetric[]): Slot[] => metrics.flatMap((m, i) => m.percentiles.map((p) => ({ metric: i, name: p.name })));

const raw = (text: string) => Prisma.raw(text);
const col = (prefix: string, i: number) => raw(`${prefix}${i}`);

/** `f.payload -> 'a' ->> 'b'`: object keys only (a key like "0" does not index an array, as in Weave). */
function payloadAt(keys: string[], asText = false): Prisma.Sql {
  const steps = keys.map((key, k) => Prisma.sql` ${raw(asText && k === keys.length - 1 ? "->>" : "->")} ${key}::text`);
  return Prisma.sql`f."payload"${Prisma.join(steps, "")}`;
}

/** A metric's value as its type reads it; anything else (missing, null, another type) is NULL. */
export function readValue(metric: StatsMetric): Prisma.Sql {
  const json = payloadAt(metric.keys);
  switch (metric.valueType) {
    case "numeric":
      // Finite doubles: every payload went through JSON.parse on its way in.
      return Prisma.sql`CASE WHEN jsonb_typeof(${json}) = 'number' THEN (${payloadAt(metric.keys, true)})::float8 END`;
    case "boolean":
      return Prisma.sql`CASE ${json} WHEN 'true'::jsonb THEN true WHEN 'false'::jsonb THEN false END`;
    case "categorical":
      return Prisma.sql`CASE WHEN jsonb_typeof(${json}) = 'string' THEN ${payloadAt(metric.keys, true)} END`;
  }
}

/** The rows of the request: its project, range [start, end) and filters. */
export function rowFilters(filters: StatsFilters): Prisma.Sql {
  const terms = [
    Prisma.sql`f."projectId" = ${filters.projectId}::uuid`,
    Prisma.sql`f."createdAt" >= ${filters.start}`,
    Prisma.sql`f."createdAt" < ${filters.end}`,
  ];
  if (filters.feedbackType !== undefined) terms.push(Prisma.sql`f."feedbackType" = ${filters.feedbackType}`);
  const trigger = filters.trigger;
  if (trigger && "exact" in trigger) terms.push(Prisma.sql`f."triggerRef" = ${trigger.exact}`);
  if (trigger && "prefix" in trigger) terms.push(Prisma.sql`starts_with(f."triggerRef", ${trigger.prefix})`);
  return Prisma.join(terms, " AND ");
}

/** A cell's partial results of metric i: numeric c (count), s (sum), lo, hi; boolean t, f (trues, falses). */
function partials(metric: StatsMetric, i: number): Prisma.Sql[] {
  const m = col("m", i);
  if (metric.valueType === "numeric") {
    return [Prisma.sql`count(${m}) AS ${col("c", i)}`, Prisma.sql`sum(${m}) AS ${col("s", i)}`, Prisma.sql`min(${m}) AS ${col("lo", i)}`, Prisma.sql`max(${m}) AS ${col("hi", i)}`];
  }
  return [Prisma.sql`count(*) FILTER (WHERE ${m}) AS ${col("t", i)}`, Prisma.sql`count(*) FILTER (WHERE NOT ${m}) AS ${col("f", i)}`];
}

/** Aggregation `name` of metric i from the partials of a group of cells (sums and counts of nothing are 0). */
function combine(metric: StatsMetric, i: number, name: string): Prisma.Sql {
  if (metric.valueType === "numeric") {
    const [c, s] = [col("c", i), col("s", i)];
    switch (name) {
      case "sum": return Prisma.sql`coalesce(sum(${s}), 0)`;
      case "avg": return Prisma.sql`sum(${s}) / nullif(sum(${c}), 0)`;
      case "min": return Prisma.sql`min(${col("lo", i)})`;
      case "max": return Prisma.sql`max(${col("hi", i)})`;
      case "count": return Prisma.sql`coalesce(sum(${c}), 0)`;
    }
  } else {
    // Booleans are 1 and 0: the sum is the trues, the mean their share, min 0 if any is false.
    const [t, f] = [Prisma.sql`coalesce(sum(${col("t", i)}), 0)`, Prisma.sql`coalesce(sum(${col("f", i)}), 0)`];
    switch (name) {
      case "count_true": case "sum": return t;
      case "count_false": return f;
      case "count": return Prisma.sql`${t} + ${f}`;
      case "avg": return Prisma.sql`${t}::float8 / nullif(${t} + ${f}, 0)`;
      case "min": return Prisma.sql`CASE WHEN ${f} > 0 THEN 0 WHEN ${t} > 0 THEN 1 END`;
      case "max": return Prisma.sql`CASE WHEN ${t} > 0 THEN 1 WHEN ${f} > 0 THEN 0 END`;
    }
  }
  throw new Error(`no ${name} for ${metric.valueType} metrics`);
}

const floatArray = (items: Prisma.Sql[]) => (items.length > 0 ? Prisma.sql`ARRAY[${Prisma.join(items.map((x) => Prisma.sql`(${x})::float8`))}]` : Prisma.sql`ARRAY[]::float8[]`);

export function statsStatement(filters: StatsFilters, bucketStarts: Date[], metrics: StatsMetric[]): Prisma.Sql {
  // One text parameter, not 10,000: '{2024-01-01T00:00:00.000Z,...}'.
  const bucket = Prisma.sql`width_bucket(f."createdAt", ${`{${bucketStarts.map((d) => d.toISOString()).join(",")}}`}::timestamptz[])`;
  const all = metrics.map((_, i) => i);
  const categorical = all.filter((i) => metrics[i].valueType === "categorical");
  const valued = all.filter((i) => metrics[i].valueType !== "categorical");
  const withPercentiles = all.filter((i) => metrics[i].percentiles.length > 0);
  const values = all.map((i) => Prisma.sql`, ${readValue(metrics[i])} AS ${col("m", i)}`);
  const rows = Prisma.sql`rows AS (SELECT ${bucket} AS b${Prisma.join([Prisma.empty, ...values], "")} FROM "Feedback" f WHERE ${rowFilters(filters)} OFFSET 0)`;

  // Cells: per bucket, or with categorical metrics per bucket and category of each (one grouping
  // set per metric: categories of different metrics are not crossed). Each set covers every row.
  const setOf = (j: number) => (categorical.length > 1 ? Prisma.sql`g = ${raw(String((2 ** categorical.length - 1) ^ (1 << (categorical.length - 1 - j))))}` : Prisma.sql`TRUE`);
  const grouping =
    categorical.length === 0 ? Prisma.sql`GROUP BY b`
    : categorical.length === 1 ? Prisma.sql`GROUP BY b, ${col("m", categorical[0])}`
    : Prisma.sql`GROUP BY GROUPING SETS (${Prisma.join(categorical.map((i) => Prisma.sql`(b, ${col("m", i)})`))})`;
  const cellColumns = [
    Prisma.sql`b`,
    ...categorical.map((i) => col("m", i)),
    ...(categorical.length > 1 ? [Prisma.sql`GROUPING(${Prisma.join(categorical.map((i) => col("m", i)))}) AS g`] : []),
    Prisma.sql`count(*) AS n`,
    ...valued.flatMap((i) => partials(metrics[i], i)),
    ...withPercentiles.map((i) => Prisma.sql`array_agg(${col("m", i)}) FILTER (WHERE ${col("m", i)} IS NOT NULL) AS ${col("a", i)}`),
  ];
  const ctes = [
    rows,
    Prisma.sql`cells AS (SELECT ${Prisma.join(cellColumns)} FROM rows ${grouping})`,
    Prisma.sql`totals AS (
      SELECT b, coalesce(sum(n), 0)::float8 AS n, ${floatArray(aggregateSlots(metrics).map((s) => combine(metrics[s.metric], s.metric, s.name)))} AS v
      FROM cells WHERE ${setOf(0)} GROUP BY ROLLUP (b))`,
  ];
  const selects = [Prisma.sql`SELECT 't' AS kind, b, n, v, NULL::int AS metric, NULL::text AS category FROM totals`];

  if (withPercentiles.length > 0) {
    const percentiles = withPercentiles.map((i) => {
      const fractions = `{${metrics[i].percentiles.map((p) => p.fraction).join(",")}}`;
      // A metric without values in a bucket has NULL, not an array of NULLs, and `||` would drop it
      // (shifting the next metric's percentiles into its places).
      return Prisma.sql`coalesce(percentile_cont(${fractions}::float8[]) WITHIN GROUP (ORDER BY ${col("m", i)}), array_fill(NULL::float8, ARRAY[${raw(String(metrics[i].percentiles.length))}]))`;
    });
    // The cells in bucket order, their values unnested: the groups arrive sorted, so only each
    // bucket's values (and the window's) are sorted, not every row by its bucket first.
    const arrays = Prisma.join(withPercentiles.map((i) => Prisma.sql`c.${col("a", i)}`));
    const unnested = Prisma.join(withPercentiles.map((i) => col("m", i)));
    selects.push(Prisma.sql`
      SELECT 'p', b, NULL, ${Prisma.join(percentiles, " || ")}, NULL, NULL
      FROM (SELECT * FROM cells WHERE ${setOf(0)} ORDER BY b) c CROSS JOIN LATERAL unnest(${arrays}) AS v(${unnested})
      GROUP BY ROLLUP (b)`);
  }

  if (categorical.length > 0) {
    ctes.push(
      Prisma.sql`categories AS (${Prisma.join(
        categorical.map((i, j) => Prisma.sql`SELECT ${raw(String(i))} AS metric, ${col("m", i)} AS category, b, n FROM cells WHERE ${setOf(j)} AND ${col("m", i)} IS NOT NULL`),
        " UNION ALL ",
      )})`,
      // Each metric's categories over the window, most frequent first (ties by value).
      Prisma.sql`ranked AS (
        SELECT metric, category, sum(n) AS n, row_number() OVER (PARTITION BY metric ORDER BY sum(n) DESC, category COLLATE "C") AS rank
        FROM categories GROUP BY metric, category)`,
    );
    selects.push(
      Prisma.sql`SELECT 'c', c.b, c.n::float8, NULL, c.metric, c.category FROM categories c JOIN ranked r USING (metric, category) WHERE r.rank <= ${raw(String(MAX_CATEGORIES))}`,
      Prisma.sql`SELECT 'c', NULL, n::float8, NULL, metric, category FROM ranked WHERE rank <= ${raw(String(MAX_CATEGORIES))}`,
    );
  }
  return Prisma.sql`WITH ${Prisma.join(ctes, ",\n")}\n${Prisma.join(selects, "\nUNION ALL\n")}`;
}
