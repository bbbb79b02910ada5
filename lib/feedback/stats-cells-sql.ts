import { Prisma } from "@/lib/db/generated/client";
import type { CellCover } from "./stats-cover";
import { MAX_CATEGORIES, type StatsMetric } from "./stats-metrics";
import { aggregateSlots, bucketOf, col, combine, floatArray, payloadAt, percentileSlots, readValue, rowFilters, type StatsFilters } from "./stats-sql";

// The statement of POST /feedback/stats from the aggregate cells (stats-cover.ts says which), plus
// the rows of the ranges the cells do not cover, in the rows of stats-sql.ts ('t', 'c'), with each
// percentile as a row of its own ('q': `metric` is its index in percentileSlots, `n` its value) and
// one row 'z' whose `n` counts what the cells did not keep of the request's paths (payloads with
// more paths than aggregated, strings too long for a category): when it is not 0, the request is
// answered from the rows instead.
//
// Both sources become "entries" of one shape — (bucket, path, kind, category, bin, n, sum, lo, hi,
// t) as the cells hold them — so counts, sums, extremes and categories combine the same way
// whatever their source. A cell's `sum` is exact (numeric), so a sum or mean is the correctly
// rounded one. Percentiles come from the log-histogram bins (1 % wide): the values at ranks
// floor(r) and ceil(r) (r = p·(N−1), as percentile_cont) are each their bin's value within 1 %,
// clamped to the exact extremes, and exactly the extremes at rank 0 and N−1; then interpolated.

export interface CellsQuery {
  filters: StatsFilters;
  bucketStarts: Date[];
  metrics: StatsMetric[];
  cover: CellCover;
}

const textArray = (items: string[]) => Prisma.sql`${items}::text[]`;
const instants = (ms: number[]) => Prisma.sql`${`{${ms.map((t) => new Date(t).toISOString()).join(",")}}`}::timestamptz[]`;
const ints = (items: number[]) => Prisma.sql`${`{${items.join(",")}}`}::int[]`;

/** Whether a request reads the cells of each type and trigger (it filters on them) rather than the
 *  project's; those have no histograms, so its percentiles come from the rows. */
export const readsDetailCells = (filters: StatsFilters) => filters.feedbackType !== undefined || filters.trigger !== undefined;

/** The cells of the covered ranges — histogram bins (`bins`) or the others — the project's, or with
 *  a type or trigger filter each type's and trigger's. */
function storedEntries({ filters, bucketStarts, metrics, cover }: CellsQuery, bins: boolean): Prisma.Sql {
  const detail = readsDetailCells(filters);
  const terms = [Prisma.sql`c."projectId" = ${filters.projectId}::uuid`, Prisma.sql`c.detail = ${detail}`];
  if (filters.feedbackType !== undefined) terms.push(Prisma.sql`c."feedbackType" = ${filters.feedbackType}`);
  const trigger = filters.trigger;
  if (trigger && "exact" in trigger) terms.push(Prisma.sql`c."triggerRef" = ${trigger.exact}`);
  if (trigger && "prefix" in trigger) terms.push(Prisma.sql`starts_with(c."triggerRef", ${trigger.prefix})`);
  const withBins = metrics.filter((m) => m.percentiles.length > 0).map((m) => m.jsonPath);
  return Prisma.sql`
    SELECT ${bucketOf(Prisma.sql`c.start`, bucketStarts)} AS b, c.path, c.kind, c.category, c.bin, c.n, c.sum, c.lo, c.hi, c.t
    FROM unnest(${ints(cover.cells.map((s) => s.level))}, ${instants(cover.cells.map((s) => s.from))}, ${instants(cover.cells.map((s) => s.to))}) AS iv(level, lo, hi)
    JOIN "FeedbackStatCell" c ON ${Prisma.join(terms, " AND ")} AND c.level = iv.level AND c.start >= iv.lo AND c.start < iv.hi
      AND ${bins ? Prisma.sql`c.kind = 'h' AND c.path = ANY(${textArray(withBins)})` : Prisma.sql`c.kind <> 'h' AND c.path = ANY(${textArray(["", ...metrics.map((m) => m.jsonPath)])})`}`;
}

/** A row's entries for the request's metrics, as the cells would hold them. */
function rowEntries(metric: StatsMetric, i: number): Prisma.Sql[] {
  const m = col("m", i);
  const path = metric.jsonPath;
  switch (metric.valueType) {
    case "numeric": {
      const entries = [Prisma.sql`(${path}, 'x', '', 0, CASE WHEN ${m} IS NOT NULL THEN 1 END, ${col("num", i)}, ${m}, ${m}, 0)`];
      if (metric.percentiles.length > 0) entries.push(Prisma.sql`(${path}, 'h', '', feedback_stat_bin(${m}), CASE WHEN ${m} IS NOT NULL THEN 1 END, NULL, NULL, NULL, 0)`);
      return entries;
    }
    case "boolean":
      return [Prisma.sql`(${path}, 'b', '', 0, CASE WHEN ${m} IS NOT NULL THEN 1 END, NULL, NULL, NULL, ${m}::int)`];
    case "categorical":
      return [Prisma.sql`(${path}, 's', ${m}, 0, CASE WHEN ${m} IS NOT NULL THEN 1 END, NULL, NULL, NULL, 0)`];
  }
}

/** The rows of the ranges no cell covers, as entries. */
function rawEntries({ filters, bucketStarts, metrics, cover }: CellsQuery): Prisma.Sql {
  // A number's sum from the JSON number itself (numeric, exact), as a cell's.
  const exact = (metric: StatsMetric, i: number) =>
    metric.valueType === "numeric" ? Prisma.sql`, CASE WHEN jsonb_typeof(${payloadAt(metric.keys)}) = 'number' THEN (${payloadAt(metric.keys)})::numeric END AS ${col("num", i)}` : Prisma.empty;
  const values = metrics.map((metric, i) => Prisma.sql`, ${readValue(metric)} AS ${col("m", i)}${exact(metric, i)}`);
  const entries = [Prisma.sql`('', 'r', '', 0, 1, NULL::numeric, NULL::float8, NULL::float8, 0)`, ...metrics.flatMap((metric, i) => rowEntries(metric, i))];
  return Prisma.sql`
    SELECT f.b, e.path, e.kind, e.category, e.bin, e.n::bigint, e.sum, e.lo, e.hi, e.t::bigint
    FROM (
      SELECT ${bucketOf(Prisma.sql`f."createdAt"`, bucketStarts)} AS b${Prisma.join([Prisma.empty, ...values], "")}
      FROM unnest(${instants(cover.raw.map((s) => s.from))}, ${instants(cover.raw.map((s) => s.to))}) AS iv(lo, hi)
      JOIN "Feedback" f ON ${Prisma.join(rowFilters(filters), " AND ")} AND f."createdAt" >= iv.lo AND f."createdAt" < iv.hi
    ) f
    CROSS JOIN LATERAL (VALUES ${Prisma.join(entries)}) AS e(path, kind, category, bin, n, sum, lo, hi, t)
    WHERE e.n IS NOT NULL`;
}

/** Metric i's partials of a bucket, named as stats-sql.ts's cells name them, for its `combine`. */
function partials(metric: StatsMetric, i: number): Prisma.Sql[] {
  const of = (kind: string) => Prisma.sql`FILTER (WHERE kind = ${kind} AND path = ${metric.jsonPath})`;
  if (metric.valueType === "numeric") {
    return [
      Prisma.sql`sum(n) ${of("x")} AS ${col("c", i)}`, Prisma.sql`sum(sum) ${of("x")} AS ${col("s", i)}`,
      Prisma.sql`min(lo) ${of("x")} AS ${col("lo", i)}`, Prisma.sql`max(hi) ${of("x")} AS ${col("hi", i)}`,
    ];
  }
  return [Prisma.sql`sum(t) ${of("b")} AS ${col("t", i)}`, Prisma.sql`sum(n - t) ${of("b")} AS ${col("f", i)}`];
}

export function cellsStatement(query: CellsQuery): Prisma.Sql {
  const { metrics } = query;
  const valued = metrics.flatMap((m, i) => (m.valueType === "categorical" ? [] : [i]));
  const categorical = metrics.flatMap((m, i) => (m.valueType === "categorical" ? [i] : []));
  const categoricalPaths = textArray(categorical.map((i) => metrics[i].jsonPath));
  // The histogram bins are most of the cells read: only the percentiles read them.
  const ctes = [
    Prisma.sql`stored AS (${storedEntries(query, false)})`,
    Prisma.sql`raw AS (${rawEntries(query)})`,
    Prisma.sql`entries AS (SELECT * FROM stored UNION ALL SELECT * FROM raw WHERE kind <> 'h')`,
    Prisma.sql`cells AS (SELECT b, sum(n) FILTER (WHERE kind = 'r') AS n${Prisma.join([Prisma.empty, ...valued.flatMap((i) => partials(metrics[i], i))], ", ")} FROM entries GROUP BY b)`,
    Prisma.sql`totals AS (
      SELECT b, coalesce(sum(n), 0)::float8 AS n, ${floatArray(aggregateSlots(metrics).map((s) => combine(metrics[s.metric], s.metric, s.name)))} AS v
      FROM cells GROUP BY ROLLUP (b))`,
  ];
  const selects = [
    Prisma.sql`SELECT 't' AS kind, b, n, v, NULL::int AS metric, NULL::text AS category FROM totals`,
    Prisma.sql`SELECT 'z', NULL, (coalesce(sum(t) FILTER (WHERE kind = 'r'), 0) + coalesce(sum(n) FILTER (WHERE kind = 'l' AND path = ANY(${categoricalPaths})), 0))::float8, NULL, NULL, NULL FROM stored`,
  ];

  const slots = percentileSlots(metrics);
  if (slots.length > 0) {
    const fractions = metrics.flatMap((m) => m.percentiles.map((p) => p.fraction));
    ctes.push(
      Prisma.sql`bins AS (${storedEntries(query, true)} UNION ALL SELECT * FROM raw WHERE kind = 'h')`,
      Prisma.sql`hist AS (
        SELECT b, path, bin, sum(n) AS n FROM bins GROUP BY b, path, bin
        UNION ALL
        SELECT NULL, path, bin, sum(n) FROM bins GROUP BY path, bin)`,
      Prisma.sql`cum AS (
        SELECT b, path, bin, n, sum(n) OVER w - n AS below, (sum(n) OVER (PARTITION BY b, path))::float8 AS total
        FROM hist WINDOW w AS (PARTITION BY b, path ORDER BY bin))`,
      Prisma.sql`extremes AS (
        SELECT coalesce(b, -1) AS b, path, min(lo) AS lo, max(hi) AS hi FROM entries WHERE kind = 'x' GROUP BY GROUPING SETS ((b, path), (path)))`,
      Prisma.sql`wanted AS (SELECT * FROM unnest(${textArray(slots.map((s) => metrics[s.metric].jsonPath))}, ${`{${fractions.join(",")}}`}::float8[]) WITH ORDINALITY AS q(path, f, k))`,
      // The bins holding ranks floor(r) and ceil(r), 0-based: each is the one bin whose ranks
      // [below, below + n) contain it.
      Prisma.sql`picked AS (
        SELECT c.b, c.path, q.k, q.f * (c.total - 1) AS r, c.total,
          min(c.bin) FILTER (WHERE c.below <= floor(q.f * (c.total - 1)) AND floor(q.f * (c.total - 1)) < c.below + c.n) AS lo_bin,
          min(c.bin) FILTER (WHERE c.below <= ceil(q.f * (c.total - 1)) AND ceil(q.f * (c.total - 1)) < c.below + c.n) AS hi_bin
        FROM cum c JOIN wanted q USING (path)
        WHERE c.below <= ceil(q.f * (c.total - 1)) AND floor(q.f * (c.total - 1)) < c.below + c.n
        GROUP BY c.b, c.path, q.k, q.f, c.total)`,
      Prisma.sql`ranked_values AS (
        SELECT p.b, p.k, p.r,
          CASE WHEN floor(p.r) = 0 THEN e.lo WHEN floor(p.r) = p.total - 1 THEN e.hi ELSE greatest(e.lo, least(e.hi, feedback_stat_bin_value(p.lo_bin))) END AS lo_value,
          CASE WHEN ceil(p.r) = 0 THEN e.lo WHEN ceil(p.r) = p.total - 1 THEN e.hi ELSE greatest(e.lo, least(e.hi, feedback_stat_bin_value(p.hi_bin))) END AS hi_value
        FROM picked p JOIN extremes e ON e.path = p.path AND e.b = coalesce(p.b, -1))`,
    );
    selects.push(Prisma.sql`SELECT 'q', b, lo_value + (r - floor(r)) * (hi_value - lo_value), NULL, (k - 1)::int, NULL FROM ranked_values`);
  }

  if (categorical.length > 0) {
    const metricOf = Prisma.sql`unnest(${categoricalPaths}, ${ints(categorical)}) AS mm(path, metric)`;
    ctes.push(
      Prisma.sql`categories AS (SELECT path, category, b, sum(n) AS n FROM entries WHERE kind = 's' AND path = ANY(${categoricalPaths}) GROUP BY path, category, b)`,
      // Each metric's categories over the window, most frequent first (ties by value), as stats-sql.ts.
      Prisma.sql`ranked AS (
        SELECT path, category, sum(n) AS n, row_number() OVER (PARTITION BY path ORDER BY sum(n) DESC, category COLLATE "C") AS rank
        FROM categories GROUP BY path, category)`,
    );
    selects.push(
      Prisma.sql`SELECT 'c', c.b, c.n::float8, NULL, mm.metric, c.category FROM categories c JOIN ranked r USING (path, category) JOIN ${metricOf} USING (path) WHERE r.rank <= ${MAX_CATEGORIES}`,
      Prisma.sql`SELECT 'c', NULL, r.n::float8, NULL, mm.metric, r.category FROM ranked r JOIN ${metricOf} USING (path) WHERE r.rank <= ${MAX_CATEGORIES}`,
    );
  }
  return Prisma.sql`WITH ${Prisma.join(ctes, ",\n")}\n${Prisma.join(selects, "\nUNION ALL\n")}`;
}
