// npm run bench:soak — the scaled deployment under a mixed load for BENCH_SOAK_MINUTES (30), with a
// process SIGKILLed and restarted every BENCH_SOAK_KILL_SECONDS (300): two web processes and two
// workers on a fresh database on the local PostgreSQL (created, dropped at the end). A short probe
// finds what the request mix sustains; the load then runs at BENCH_SOAK_LOAD (0.7) of it: chat
// streams (a fifth closed early), feedback written, stats asked, the call log browsed, 20
// annotators working a queue, SFT and RL jobs, an RL run. Web 1 or worker 1 is killed, never web 0
// or worker 0, whose memory is watched. Prints the checks (scripts/lib/soak.ts) and p50/p99 per
// route, ends with one JSON line, and exits 1 when a check fails.
// Settings: BENCH_SOAK_DATABASE_URL (the server, default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_SOAK_MINUTES, BENCH_SOAK_KILL_SECONDS, BENCH_SOAK_LOAD, BENCH_SOAK_PROBE_SECONDS (20),
// BENCH_SOAK_JOB_SECONDS (60: a training job this often), BENCH_SOAK_DRAIN_SECONDS (300).
import path from "node:path";
import { buildApp, buildIsCurrent } from "./lib/build";
import { MAX_IN_FLIGHT, runSoak } from "./lib/soak";
import { textTable } from "./lib/text-table";

const env = process.env;
const root = path.resolve(import.meta.dirname, "..");

function positive(name: string, fallback: number): number {
  const value = Number(env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(env[name])}`);
  return value;
}

async function main(): Promise<number> {
  const settings = {
    serverUrl: env.BENCH_SOAK_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    minutes: positive("BENCH_SOAK_MINUTES", 30),
    killSeconds: positive("BENCH_SOAK_KILL_SECONDS", 300),
    loadShare: positive("BENCH_SOAK_LOAD", 0.7),
    probeSeconds: positive("BENCH_SOAK_PROBE_SECONDS", 20),
    jobEverySeconds: positive("BENCH_SOAK_JOB_SECONDS", 60),
    drainSeconds: positive("BENCH_SOAK_DRAIN_SECONDS", 300),
    annotators: 20,
    log: (line: string) => console.log(line),
  };
  // Built once here, not by both web processes at once.
  if (!buildIsCurrent(root)) await buildApp(root);
  const report = await runSoak(settings);
  console.log(textTable(`${report.requests} requests in ${settings.minutes} minutes; kills: ${report.kills.map((k) => `${k.process} at ${k.atSeconds} s (back after ${k.backAfterSeconds} s)`).join(", ") || "none"}`,
    report.routes.map((r) => ({ route: r.route, n: String(r.n), p50: `${r.p50_ms} ms`, p99: `${r.p99_ms} ms`, statuses: Object.entries(r.statuses).map(([s, n]) => `${s}×${n}`).join(" ") }))));
  console.log(`\nload average: ${report.loadAverage.start.join(" ")} at the start, at most ${report.loadAverage.max1m} (1 min) during, ${report.loadAverage.end.join(" ")} at the end; ` +
    `${report.operations} operations sent (${report.closedEarly} streams closed early), ${report.skipped} arrivals skipped with ${MAX_IN_FLIGHT} in flight\n`);
  for (const check of report.checks) console.log(`${check.ok ? "ok  " : "FAIL"} ${check.what}`);
  const { findings, checks, ...rest } = report;
  console.log(JSON.stringify({ benchmark: "soak", minutes: settings.minutes, killSeconds: settings.killSeconds, loadShare: settings.loadShare, ...rest,
    missing: { calls: findings.missingCalls.length, feedback: findings.missingFeedback.length, submissions: findings.missingSubmissions },
    checks: checks.map((c) => ({ ok: c.ok, what: c.what })) }));
  return checks.every((c) => c.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
