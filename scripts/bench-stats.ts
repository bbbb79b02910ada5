// npm run bench:stats — POST /feedback/stats over HTTP at scale: 1,000,000 feedback rows on a
// PostgreSQL server (a fresh database, dropped afterwards) and 100,000 on the embedded PGlite,
// spread over 30 days (3 feedback types, 10 trigger refs, payloads with a number, a boolean and a
// category), asked for the 30 days in hourly buckets in America/New_York with 3 metrics and p50/p95
// percentiles. The rows are seeded in SQL with the stats triggers off, then their aggregate cells
// are built as the migration's backfill builds them (feedback_stats_rebuild()). Reports, per
// database, the median over 3 runs of each run's p50/p95 of 20 sequential requests (the answers must
// come from the cells: x-anneal-stats-source), and of the raw statement on the rows (stats-sql.ts,
// the path before the cells, run in-process, so without HTTP) in the same run; the speed-up is raw
// p50 / p50. Exits 1 unless both databases are at least 8× faster than raw; p50 at most 300 ms is
// the target, printed. The machine may be shared: the load average is printed with each run. Ends
// with one JSON line: {"benchmark":"stats","results":[...]}.
//   BENCH_STATS_DATABASE_URL  server to create the database on (postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_STATS_ROWS, BENCH_STATS_EMBEDDED_ROWS, BENCH_STATS_REQUESTS, BENCH_STATS_RAW_REQUESTS  (1000000, 100000, 20, 5)
import os from "node:os";
import { POST as feedbackStatsRoute } from "@/app/feedback/stats/route";
import { getDatabase } from "@/lib/db/client";
import { planStats, STATS_SOURCE_HEADER } from "@/lib/feedback/stats";
import { queryStats } from "@/lib/feedback/stats-query";
import { feedbackStatsBody } from "@/lib/feedback/stats-schema";
import { type DatabaseChoice, openStatsWorld } from "./lib/bench-stats-world";
import { percentile } from "./lib/latency-stats";
import { serveRoute } from "./lib/route-server";
import { textTable } from "./lib/text-table";

process.env.ANNEAL_LOG_LEVEL ??= "warn";
const env = process.env;
const ADMIN_URL = env.BENCH_STATS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROWS = Number(env.BENCH_STATS_ROWS ?? 1_000_000);
const EMBEDDED_ROWS = Number(env.BENCH_STATS_EMBEDDED_ROWS ?? 100_000);
const REQUESTS = Number(env.BENCH_STATS_REQUESTS ?? 20);
const RAW_REQUESTS = Number(env.BENCH_STATS_RAW_REQUESTS ?? 5);
const RUNS = 3;
const WARM_UP = 2;
const MIN_SPEEDUP = 8;
const P50_TARGET_MS = 300;
/** 30 days that include New York's return to standard time (2025-11-02). */
const FROM = new Date("2025-10-05T00:00:00Z");
const DAYS = 30;
const METRICS = [
  { json_path: "score", value_type: "numeric", percentiles: [50, 95] },
  { json_path: "ok", value_type: "boolean", percentiles: [50, 95] },
  { json_path: "label", value_type: "categorical", percentiles: [50, 95] },
];

const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");
const ms = (x: number) => x.toFixed(0);
const median = (values: number[]) => percentile(values, 50);

const requestBody = (project: string) => ({
  project_id: project,
  start: FROM.toISOString(),
  end: new Date(FROM.getTime() + DAYS * 86_400_000).toISOString(),
  granularity: 3600,
  timezone: "America/New_York",
  metrics: METRICS,
});

interface Run {
  load: string;
  p50: number;
  p95: number;
  rawP50: number;
}

interface Measured {
  database: string;
  rows: number;
  seedSeconds: number;
  aggregateSeconds: number;
  buckets: number;
  runs: Run[];
}

async function measure(database: string, choice: DatabaseChoice, rows: number): Promise<Measured> {
  console.log(`\n${database}: seeding ${rows.toLocaleString("en")} rows, then building their aggregate cells…`);
  const world = await openStatsWorld(choice, { rows, from: FROM, days: DAYS });
  const server = await serveRoute("POST", "/feedback/stats", feedbackStatsRoute);
  try {
    const [{ version }] = await getDatabase().sql.query<{ version: string }>("SELECT version()");
    console.log(`${version.split(" on ")[0]}: seeded in ${world.seedSeconds.toFixed(1)} s, cells built in ${world.aggregateSeconds.toFixed(1)} s`);
    const authorization = `Basic ${Buffer.from(`api:${world.apiKey}`).toString("base64")}`;
    const ask = async () => {
      const started = performance.now();
      const send = () => fetch(server.url, { method: "POST", headers: { authorization, "content-type": "application/json" }, body: JSON.stringify(requestBody(world.project)) });
      // The connection kept alive across the raw statement's seconds may be closed as it is reused
      // (the server's keep-alive timeout, 5 s): that request is sent again, on a new connection.
      const response = await send().catch((error: unknown) => ((error as { cause?: { code?: string } }).cause?.code === "ECONNRESET" ? send() : Promise.reject(error)));
      const body = await response.json();
      if (!response.ok) throw new Error(`${response.status}: ${JSON.stringify(body)}`);
      const source = response.headers.get(STATS_SOURCE_HEADER);
      if (source !== "cells") throw new Error(`answered from ${source}, not the aggregate cells alone`);
      return { ms: performance.now() - started, buckets: body.buckets as { count: number }[] };
    };
    const plan = planStats(world.projectId, feedbackStatsBody.parse(requestBody(world.project)));
    const askRaw = async () => {
      const started = performance.now();
      await queryStats(plan.filters, plan.bucketStarts, plan.metrics);
      return performance.now() - started;
    };
    const first = await ask();
    const counted = first.buckets.reduce((sum, b) => sum + b.count, 0);
    if (counted !== rows) throw new Error(`the buckets count ${counted} rows, not ${rows}`);
    for (let i = 1; i < WARM_UP; i++) await ask();
    await askRaw();
    const runs: Run[] = [];
    for (let run = 0; run < RUNS; run++) {
      const latencies: number[] = [];
      for (let i = 0; i < REQUESTS; i++) latencies.push((await ask()).ms);
      const raw: number[] = [];
      for (let i = 0; i < RAW_REQUESTS; i++) raw.push(await askRaw());
      runs.push({ load: loadAverage(), p50: percentile(latencies, 50), p95: percentile(latencies, 95), rawP50: percentile(raw, 50) });
      console.log(`  run ${run + 1}: p50 ${ms(runs[run].p50)} ms, p95 ${ms(runs[run].p95)} ms; raw statement p50 ${ms(runs[run].rawP50)} ms; load ${runs[run].load}`);
    }
    return { database, rows, seedSeconds: world.seedSeconds, aggregateSeconds: world.aggregateSeconds, buckets: first.buckets.length, runs };
  } finally {
    await server.close();
    await world.close();
  }
}

console.log(`load average (1/5/15 min): ${loadAverage()} on ${os.availableParallelism()} CPUs`);
console.log(`request: ${DAYS} days from ${FROM.toISOString()}, 3600 s buckets in America/New_York; metrics: ${METRICS.map((m) => `${m.json_path} (${m.value_type})`).join(", ")}, p50/p95 (percentiles apply to the numeric one)`);
const measured = [await measure("PostgreSQL", { kind: "postgres", adminUrl: ADMIN_URL }, ROWS), await measure("PGlite (embedded)", { kind: "pglite" }, EMBEDDED_ROWS)];
const results = measured.map((r) => {
  const p50 = median(r.runs.map((run) => run.p50));
  const rawP50 = median(r.runs.map((run) => run.rawP50));
  return { database: r.database, rows: r.rows, p50_ms: Math.round(p50), p95_ms: Math.round(median(r.runs.map((run) => run.p95))), raw_p50_ms: Math.round(rawP50), speedup: Number((rawP50 / p50).toFixed(1)) };
});

console.log(textTable(`POST /feedback/stats over HTTP, median of ${RUNS} runs of ${REQUESTS} sequential requests (after ${WARM_UP} warm-up); raw: the statement on the rows, ${RAW_REQUESTS} per run`, measured.map((r, i) => ({
  database: r.database,
  rows: r.rows.toLocaleString("en"),
  buckets: String(r.buckets),
  "p50 ms": String(results[i].p50_ms),
  "p95 ms": String(results[i].p95_ms),
  "raw p50 ms": String(results[i].raw_p50_ms),
  "speed-up": `${results[i].speedup}×`,
  "seed s": r.seedSeconds.toFixed(1),
  "cells s": r.aggregateSeconds.toFixed(1),
}))));
console.log(`\nload average after: ${loadAverage()}`);

let pass = true;
for (const r of results) {
  const fast = r.speedup >= MIN_SPEEDUP;
  pass &&= fast;
  console.log(`${fast ? "PASS" : "FAIL"}: ${r.database} ${r.speedup}× faster than the raw statement (at least ${MIN_SPEEDUP}×); p50 ${r.p50_ms} ms ${r.p50_ms <= P50_TARGET_MS ? "meets" : "misses"} the ${P50_TARGET_MS} ms target`);
}
console.log(JSON.stringify({ benchmark: "stats", results }));
process.exit(pass ? 0 : 1);
