// npm run bench:annotate — 20 annotators work one 2,000-item annotation queue at once, on PostgreSQL,
// through the HTTP API of a real server (npm start's entry in a child process, on a fresh database
// this script creates on the local server and drops afterwards). Each annotator loops
// next → read the item (with its call) → submit (two spec values), with Basic `api:<key>` auth.
// Prints p50/p95 of "submit and next" (a submission and the claim that follows it), checks that no
// item was claimed by two annotators and that every item was annotated once, and exits 1 unless the
// p50 is under 150 ms (stretch: 50 ms). Identities and calls are seeded straight into the database
// (recording 2,000 completions would measure the engine); specs, queue and items go through the API.
// Settings: BENCH_ANNOTATE_DATABASE_URL (a database on the server to connect to for CREATE/DROP
// DATABASE; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_ANNOTATE_ANNOTATORS (20),
// BENCH_ANNOTATE_ITEMS (2000), BENCH_ANNOTATE_WARMUP_ITEMS (200: a queue worked first, not measured).
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { closeDatabase, getDb } from "@/lib/db/client";
import { benchTeam, seedCalls, type Person } from "./lib/bench-people";
import { startBenchServer, type BenchServer } from "./lib/bench-learn-server";
import { percentile } from "./lib/latency-stats";
import { textTable } from "./lib/text-table";

const root = path.resolve(import.meta.dirname, "..");
const env = process.env;
const ADMIN_URL = env.BENCH_ANNOTATE_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const ANNOTATORS = Number(env.BENCH_ANNOTATE_ANNOTATORS ?? 20);
const ITEMS = Number(env.BENCH_ANNOTATE_ITEMS ?? 2000);
const WARMUP_ITEMS = Number(env.BENCH_ANNOTATE_WARMUP_ITEMS ?? 200);
const P50_LIMIT_MS = 150;
const P50_STRETCH_MS = 50;

/** A fresh database on the server, and how to drop it. */
async function createDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `anneal_bench_annotate_${Date.now()}_${randomBytes(3).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The owner (admin of a team `bench`), the annotators in it, and a project of recorded calls. */
async function seed(calls: number): Promise<{ owner: Person; annotators: Person[]; project: string }> {
  const { owner, annotators, projectId } = await benchTeam("bench", "judging", ANNOTATORS);
  await seedCalls(projectId, calls);
  return { owner, annotators, project: "bench/judging" };
}

class Api {
  constructor(private readonly url: string) {}

  async request<T = any>(who: Person, method: string, route: string, body?: unknown, scheme: "basic" | "bearer" = "basic"): Promise<T> {
    const authorization = scheme === "basic" ? `Basic ${Buffer.from(`api:${who.key}`).toString("base64")}` : `Bearer ${who.key}`;
    const response = await fetch(`${this.url}${route}`, {
      method,
      headers: { authorization, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }
}

/** A queue of the project's first `items` calls (added by a call-log filter), worked by everyone. */
async function createQueue(api: Api, owner: Person, project: string, annotators: Person[], name: string, items: number): Promise<string> {
  const queue = await api.request(owner, "POST", "/annotation_queues", {
    project, name, instructions: "Score the answer; say whether it is right.",
    specs: [{ name: "score" }, { name: "correct" }], display_fields: ["messages.1.content"], annotators: annotators.map((a) => a.username),
  });
  const added = await api.request(owner, "POST", `/annotation_queues/${queue.id}/items`, { filter: { status: "success" }, limit: items });
  if (added.added !== items) throw new Error(`queue ${name}: ${added.added} items added, wanted ${items}`);
  return queue.id;
}

interface Work {
  /** Milliseconds of each submission plus the claim that follows it. */
  submitAndNext: number[];
  next: number[];
  read: number[];
  submit: number[];
  /** Item id → annotators it was handed to by "next" (once per claim, resumes not counted twice). */
  claims: Map<string, Set<string>>;
  seconds: number;
}

/** Every annotator at once: next → read → submit, until nothing is left for them. */
async function work(api: Api, queueId: string, annotators: Person[]): Promise<Work> {
  const out: Work = { submitAndNext: [], next: [], read: [], submit: [], claims: new Map(), seconds: 0 };
  const timed = async <T>(into: number[], run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await run();
    into.push(performance.now() - started);
    return result;
  };
  const next = (who: Person) => timed(out.next, () => api.request<{ item: { id: string } | null }>(who, "POST", `/annotation_queues/${queueId}/next`));
  const started = performance.now();
  await Promise.all(
    annotators.map(async (who) => {
      let { item } = await next(who);
      while (item) {
        const id = item.id;
        out.claims.set(id, (out.claims.get(id) ?? new Set()).add(who.username));
        await timed(out.read, () => api.request(who, "GET", `/annotation_queues/${queueId}/items/${id}`));
        const pairStarted = performance.now();
        const values = { score: 1 + Math.floor(Math.random() * 5), correct: Math.random() < 0.5 };
        await timed(out.submit, () => api.request(who, "POST", `/annotation_queues/${queueId}/items/${id}/submit`, { values }));
        ({ item } = await next(who));
        out.submitAndNext.push(performance.now() - pairStarted);
      }
    }),
  );
  out.seconds = (performance.now() - started) / 1000;
  return out;
}

const ms = (values: number[], p: number) => `${percentile(values, p).toFixed(1)} ms`;

async function main(): Promise<number> {
  const database = await createDatabase();
  let server: BenchServer | undefined;
  try {
    console.log(`database: ${new URL(database.url).pathname.slice(1)} (created; dropped at the end)`);
    server = await startBenchServer(root, { DATABASE_URL: database.url, ANNEAL_TRAINING_CONCURRENCY: "0" });
    console.log(`server: ${server.url} healthy after ${server.startSeconds.toFixed(1)} s`);
    process.env.DATABASE_URL = database.url; // the seeding below writes to the server's database
    const { owner, annotators, project } = await seed(ITEMS);
    const api = new Api(server.url);
    for (const spec of [{ name: "score", type: "numeric", min: 1, max: 5, integer: true }, { name: "correct", type: "boolean" }]) {
      await api.request(owner, "POST", "/v1/teams/bench/projects/judging/annotation-specs", spec, "bearer");
    }
    if (WARMUP_ITEMS > 0) {
      const warm = await work(api, await createQueue(api, owner, project, annotators, "warm-up", WARMUP_ITEMS), annotators);
      console.log(`warm-up: ${WARMUP_ITEMS} items in ${warm.seconds.toFixed(1)} s (not measured)`);
    }
    const queueId = await createQueue(api, owner, project, annotators, "measured", ITEMS);
    const measured = await work(api, queueId, annotators);
    const stats = await api.request(owner, "GET", `/annotation_queues/${queueId}/stats`);
    const rows = await getDb().feedback.count({ where: { queueId } });

    console.log(textTable(`${ANNOTATORS} annotators, one ${ITEMS}-item queue, ${measured.seconds.toFixed(1)} s (${(ITEMS / measured.seconds).toFixed(0)} items/s)`, [
      { what: "submit and next", n: String(measured.submitAndNext.length), p50: ms(measured.submitAndNext, 50), p95: ms(measured.submitAndNext, 95), p99: ms(measured.submitAndNext, 99), max: ms(measured.submitAndNext, 100) },
      { what: "next", n: String(measured.next.length), p50: ms(measured.next, 50), p95: ms(measured.next, 95), p99: ms(measured.next, 99), max: ms(measured.next, 100) },
      { what: "read item", n: String(measured.read.length), p50: ms(measured.read, 50), p95: ms(measured.read, 95), p99: ms(measured.read, 99), max: ms(measured.read, 100) },
      { what: "submit", n: String(measured.submit.length), p50: ms(measured.submit, 50), p95: ms(measured.submit, 95), p99: ms(measured.submit, 99), max: ms(measured.submit, 100) },
    ]));

    const twice = [...measured.claims.values()].filter((who) => who.size > 1).length;
    const p50 = percentile(measured.submitAndNext, 50);
    const checks: [string, boolean][] = [
      [`no item claimed by two annotators (${twice} were)`, twice === 0],
      [`every item handed out (${measured.claims.size} of ${ITEMS})`, measured.claims.size === ITEMS],
      [`every item completed once (stats: ${stats.counts.completed} completed, ${stats.counts.remaining} remaining)`, stats.counts.completed === ITEMS && stats.counts.remaining === 0],
      [`two feedback rows per item (${rows})`, rows === 2 * ITEMS],
      [`submit and next p50 under ${P50_LIMIT_MS} ms (${p50.toFixed(1)} ms; stretch ${P50_STRETCH_MS} ms: ${p50 < P50_STRETCH_MS ? "met" : "not met"})`, p50 < P50_LIMIT_MS],
    ];
    console.log("");
    for (const [what, ok] of checks) console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
    return checks.every(([, ok]) => ok) ? 0 : 1;
  } finally {
    await closeDatabase();
    await server?.stop();
    await database.drop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(2);
  },
);
