import { badRequest } from "@/lib/contract/errors";
import { boundExceededError } from "@/lib/db/bound-errors";
import { databaseBounds } from "@/lib/db/bounds";
import { getDatabase } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import type { StatsMetric } from "./stats-metrics";
import { aggregateSlots, percentileSlots, type StatsFilters, statsStatement } from "./stats-sql";

// Runs the statement of stats-sql.ts and sorts its rows out: per bucket (and the window, key null)
// the row count and each stat by `<metric index>/<name>`, and the category counts.

export interface BucketResult {
  n: number;
  stats: Map<string, number | null>;
}

export interface CategoryRow {
  /** 1-based bucket index; null for the window. */
  b: number | null;
  /** The metric's index in the request. */
  metric: number;
  category: string;
  n: number;
}

export interface StatsResults {
  /** Per 1-based bucket index, and the window (null). */
  buckets: Map<number | null, BucketResult>;
  categories: CategoryRow[];
}

export const statKey = (metric: number, name: string) => `${metric}/${name}`;

interface RawRow {
  kind: "t" | "p" | "c";
  b: number | null;
  n: number | null;
  v: (number | null)[] | null;
  metric: number | null;
  category: string | null;
}

/** PostgreSQL's numeric_value_out_of_range. */
const NUMERIC_OUT_OF_RANGE = "22003";

/** The SQLSTATE of a raw query's failure, as Prisma's driver adapters report it. */
function postgresCode(error: unknown): string | undefined {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return undefined;
  return (error.meta as { driverAdapterError?: { cause?: { originalCode?: string } } } | undefined)?.driverAdapterError?.cause?.originalCode;
}

/** A sum (or a mean's sum, or an interpolation) beyond ±1.8e308: the data's doing, not a bug. */
export function overflowError(metrics: StatsMetric[]) {
  const paths = metrics.filter((m) => m.valueType === "numeric").map((m) => `'${m.jsonPath}'`);
  return badRequest(`The values of ${paths.join(", ")} overflow double precision arithmetic (beyond ±1.8e308).`);
}

/** What a failed stats statement answers: a 400 for an overflow, a 503 naming the stats query for a
 *  bound it hit (a lock held, its statement or transaction bound). */
export const statsQueryError = (metrics: StatsMetric[]) => (error: unknown): never => {
  if (postgresCode(error) === NUMERIC_OUT_OF_RANGE) throw overflowError(metrics);
  const { statementMs, transactionMs } = databaseBounds().stats;
  throw boundExceededError(error, "the feedback stats query", { statement: statementMs, transaction: transactionMs }) ?? error;
};

/** Runs a statement (the stats statement, or EXPLAIN of it) under the settings it is planned for,
 *  and the bounds of its kind (bounds.ts: longer than a request's, the one bulk read of raw rows). */
export async function inStatsSession<Row>(statement: Prisma.Sql): Promise<Row[]> {
  const database = getDatabase();
  const db = database.prisma;
  const bounds = databaseBounds();
  const start = database.kind === "postgres" ? bounds.request.transactionStartMs : bounds.embedded.transactionStartMs;
  const results = await db.$transaction([
    // A whole number of ms from bounds.ts (SET takes no parameters). PGlite enforces none.
    db.$executeRawUnsafe(`SET LOCAL statement_timeout = ${Math.trunc(bounds.stats.statementMs)}`),
    // JIT compiling (PostgreSQL's default above this plan's cost) takes ~0.5 s and saves less.
    db.$executeRaw`SET LOCAL jit = off`,
    // The rows and the percentiles' sorts of a million values stay (mostly) in memory.
    db.$executeRaw`SET LOCAL work_mem = '64MB'`,
    // The planner prices reading JSON values at next to nothing, so it never finds it worth handing
    // the scan to parallel workers; at a million rows they halve the time. (PGlite has no workers.)
    db.$executeRaw`SET LOCAL parallel_tuple_cost = 0.001`,
    db.$queryRaw<Row[]>(statement),
  ], { timeout: bounds.stats.transactionMs, maxWait: start });
  return results[4];
}

export async function queryStats(filters: StatsFilters, bucketStarts: Date[], metrics: StatsMetric[]): Promise<StatsResults> {
  const rows = await inStatsSession<RawRow>(statsStatement(filters, bucketStarts, metrics)).catch(statsQueryError(metrics));

  const aggregates = aggregateSlots(metrics);
  const percentiles = percentileSlots(metrics);
  const buckets = new Map<number | null, BucketResult>();
  const bucketOf = (b: number | null) => buckets.get(b) ?? buckets.set(b, { n: 0, stats: new Map() }).get(b)!;
  const categories: CategoryRow[] = [];
  for (const row of rows) {
    if (row.kind === "c") {
      categories.push({ b: row.b, metric: row.metric!, category: row.category!, n: row.n! });
      continue;
    }
    const bucket = bucketOf(row.b);
    if (row.kind === "t") bucket.n = row.n!;
    (row.kind === "t" ? aggregates : percentiles).forEach((slot, k) => bucket.stats.set(statKey(slot.metric, slot.name), row.v?.[k] ?? null));
  }
  return { buckets, categories };
}
