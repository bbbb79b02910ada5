// npm run bench:stats — POST /feedback/stats over HTTP at scale: 1,000,000 feedback rows on a
// PostgreSQL server (a fresh database, dropped afterwards) and 100,000 on the embedded PGlite,
// spread over 30 days (3 feedback types, 10 trigger refs, payloads with a number, a boolean and a
// category), asked for the 30 days in hourly buckets in America/New_York with 3 metrics and
// p50/p95 percentiles. Prints p50/p95 latency of sequential requests and, once per database, where
// EXPLAIN ANALYZE says the statement spends its time. Exits 1 unless PostgreSQL's p50 is under 1 s.
// The machine may be shared: the load average is printed before and after.
//   BENCH_STATS_DATABASE_URL  server to create the database on (postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_STATS_ROWS, BENCH_STATS_EMBEDDED_ROWS, BENCH_STATS_REQUESTS  (1000000, 100000, 20)
import os from "node:os";
import { POST as feedbackStatsRoute } from "@/app/feedback/stats/route";
import { getDatabase } from "@/lib/db/client";
import { Prisma } from "@/lib/db/generated/client";
import { planStats } from "@/lib/feedback/stats";
import { inStatsSession } from "@/lib/feedback/stats-query";
import { feedbackStatsBody } from "@/lib/feedback/stats-schema";
import { statsStatement } from "@/lib/feedback/stats-sql";
import { type DatabaseChoice, openStatsWorld, type StatsWorld } from "./lib/bench-stats-world";
import { percentile } from "./lib/latency-stats";
import { type PlanNode, planCosts } from "./lib/plan-costs";
import { serveRoute } from "./lib/route-server";
import { textTable } from "./lib/text-table";

process.env.ANNEAL_LOG_LEVEL ??= "warn";
const env = process.env;
const ADMIN_URL = env.BENCH_STATS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ROWS = Number(env.BENCH_STATS_ROWS ?? 1_000_000);
const EMBEDDED_ROWS = Number(env.BENCH_STATS_EMBEDDED_ROWS ?? 100_000);
const REQUESTS = Number(env.BENCH_STATS_REQUESTS ?? 20);
const WARM_UP = 2;
const P50_LIMIT_MS = 1000;
const P50_STRETCH_MS = 300;
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

const requestBody = (project: string) => ({
  project_id: project,
  start: FROM.toISOString(),
  end: new Date(FROM.getTime() + DAYS * 86_400_000).toISOString(),
  granularity: 3600,
  timezone: "America/New_York",
  metrics: METRICS,
});

interface Measured {
  database: string;
  rows: number;
  seedSeconds: number;
  buckets: number;
  latencies: number[];
  plan: { executionMs: number; outline: string[]; main: string[] };
}

async function explain(world: StatsWorld): Promise<Measured["plan"]> {
  const plan = planStats(world.projectId, feedbackStatsBody.parse(requestBody(world.project)));
  const [row] = await inStatsSession<{ "QUERY PLAN": unknown }>(Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statsStatement(plan.filters, plan.bucketStarts, plan.metrics)}`);
  const raw = row["QUERY PLAN"];
  const [result] = (typeof raw === "string" ? JSON.parse(raw) : raw) as [{ Plan: PlanNode; "Execution Time": number }];
  const costs = planCosts(result.Plan);
  return {
    executionMs: result["Execution Time"],
    outline: costs.map((c) => `${"  ".repeat(c.depth)}${c.label}: ${ms(c.totalMs)} ms (self ${ms(c.selfMs)})`),
    main: [...costs].sort((a, b) => b.selfMs - a.selfMs).slice(0, 3).map((c) => `${c.label} ${ms(c.selfMs)} ms`),
  };
}

async function measure(database: string, choice: DatabaseChoice, rows: number): Promise<Measured> {
  console.log(`\n${database}: seeding ${rows.toLocaleString("en")} rows…`);
  const world = await openStatsWorld(choice, { rows, from: FROM, days: DAYS });
  const server = await serveRoute("POST", "/feedback/stats", feedbackStatsRoute);
  try {
    const [{ version }] = await getDatabase().sql.query<{ version: string }>("SELECT version()");
    console.log(`${version.split(" on ")[0]}: seeded in ${world.seedSeconds.toFixed(1)} s`);
    const authorization = `Basic ${Buffer.from(`api:${world.apiKey}`).toString("base64")}`;
    const ask = async () => {
      const started = performance.now();
      const response = await fetch(server.url, { method: "POST", headers: { authorization, "content-type": "application/json" }, body: JSON.stringify(requestBody(world.project)) });
      const body = await response.json();
      if (!response.ok) throw new Error(`${response.status}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - started, buckets: body.buckets as { count: number }[] };
    };
    const first = await ask();
    const counted = first.buckets.reduce((sum, b) => sum + b.count, 0);
    if (counted !== rows) throw new Error(`the buckets count ${counted} rows, not ${rows}`);
    for (let i = 1; i < WARM_UP; i++) await ask();
    const latencies: number[] = [];
    for (let i = 0; i < REQUESTS; i++) latencies.push((await ask()).ms);
    return { database, rows, seedSeconds: world.seedSeconds, buckets: first.buckets.length, latencies, plan: await explain(world) };
  } finally {
    await server.close();
    await world.close();
  }
}

console.log(`load average (1/5/15 min): ${loadAverage()} on ${os.availableParallelism()} CPUs`);
console.log(`request: ${DAYS} days from ${FROM.toISOString()}, 3600 s buckets in America/New_York; metrics: ${METRICS.map((m) => `${m.json_path} (${m.value_type})`).join(", ")}, p50/p95 (percentiles apply to the numeric one)`);
const results = [await measure("PostgreSQL", { kind: "postgres", adminUrl: ADMIN_URL }, ROWS), await measure("PGlite (embedded)", { kind: "pglite" }, EMBEDDED_ROWS)];

console.log(textTable(`POST /feedback/stats over HTTP, ${REQUESTS} sequential requests after ${WARM_UP} warm-up`, results.map((r) => ({
  database: r.database,
  rows: r.rows.toLocaleString("en"),
  buckets: String(r.buckets),
  "p50 ms": ms(percentile(r.latencies, 50)),
  "p95 ms": ms(percentile(r.latencies, 95)),
  "min–max ms": `${ms(Math.min(...r.latencies))}–${ms(Math.max(...r.latencies))}`,
  "seed s": r.seedSeconds.toFixed(1),
}))));
for (const r of results) {
  console.log(`\n${r.database}, EXPLAIN ANALYZE of the statement (one run): ${ms(r.plan.executionMs)} ms; main cost: ${r.plan.main.join("; ")}`);
  console.log(r.plan.outline.map((line) => `  ${line}`).join("\n"));
}
console.log(`\nload average after: ${loadAverage()}`);

const p50 = percentile(results[0].latencies, 50);
const verdict = p50 < P50_STRETCH_MS ? "PASS (stretch met)" : p50 < P50_LIMIT_MS ? "PASS" : "FAIL";
console.log(`${verdict}: PostgreSQL p50 ${ms(p50)} ms (must be under ${P50_LIMIT_MS} ms; stretch ${P50_STRETCH_MS} ms)`);
process.exit(p50 < P50_LIMIT_MS ? 0 : 1);
