import { randomUUID } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase, getDb } from "@/lib/db/client";
import { planStats, STATS_SOURCE_HEADER } from "@/lib/feedback/stats";
import { queryCellStats } from "@/lib/feedback/stats-cells";
import { cellCover } from "@/lib/feedback/stats-cover";
import { PERCENTILE_RELATIVE_ERROR } from "@/lib/feedback/stats-histogram";
import { queryStats, type StatsResults } from "@/lib/feedback/stats-query";
import { feedbackStatsBody } from "@/lib/feedback/stats-schema";
import { createTestTeam } from "./factories";
import { post } from "./feedback-fixtures";
import { api } from "./http";

// The aggregate cells kept by the triggers on "Feedback" against the raw statement on the rows:
// after inserts (one and many per statement), replaces, purges, deletes and updates, the cells give
// the same row counts, counts, sums, extremes and categories exactly, and percentiles within 1 %,
// for ranges aligned to hours, unaligned ones (cells and the rows of the edges), Kathmandu's
// +05:45 hours (15-minute cells) and a feedback type; a request the cells cannot answer is read
// from the rows, and the response says which.

type Team = Awaited<ReturnType<typeof createTestTeam>>;
let team: Team;

beforeAll(async () => {
  team = await createTestTeam();
});

const HOUR = 3_600_000;
const DAY0 = Date.parse("2024-06-03T00:00:00Z");
const METRICS = [
  { json_path: "score", value_type: "numeric", aggregations: ["sum", "avg", "min", "max", "count"], percentiles: [0, 10, 50, 95, 100] },
  { json_path: "delta", value_type: "numeric", aggregations: ["sum", "avg", "min", "max", "count"] },
  { json_path: "ok", value_type: "boolean", aggregations: ["sum", "avg", "min", "max", "count", "count_true", "count_false"] },
  { json_path: "label", value_type: "categorical" },
  { json_path: "nested.x", value_type: "numeric", aggregations: ["sum", "min", "max"] },
];

/** Deterministic rows over 12 hours: scores k/4 in (0, 100] (sums exact in binary), negative
 *  deltas, booleans, five labels, a nested number, two feedback types; some values of other kinds. */
function rows(projectId: string, count: number, seed: number) {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => {
    const score = Math.floor(next() * 400 + 1) / 4;
    const payload: Record<string, unknown> = { score, delta: -Math.floor(next() * 64) / 8, ok: next() < 0.7, label: ["good", "fair", "bad", "off", "spam"][Math.floor(next() * 5)] };
    if (next() < 0.3) payload.nested = { x: Math.floor(next() * 100) };
    if (next() < 0.05) payload.score = "7"; // not a number: no value
    return {
      projectId,
      feedbackType: next() < 0.5 ? "grade" : "monitor",
      payload: payload as object,
      svcRef: `svc:///${team.name}/p/call/${randomUUID()}`,
      wbUserId: team.admin.principal.user.id,
      createdAt: new Date(DAY0 + Math.floor(next() * 12 * HOUR)),
    };
  });
}

async function newProject(): Promise<{ id: string; ref: string }> {
  const name = `cells-${randomUUID().slice(0, 8)}`;
  const project = await getDb().project.create({ data: { teamId: team.id, name } });
  return { id: project.id, ref: `${team.name}/${name}` };
}

/** The same request from the cells and from the rows; the cells' results, or undefined. */
async function bothWays(projectId: string, request: Record<string, unknown>): Promise<{ cells: StatsResults | undefined; raw: StatsResults }> {
  const plan = planStats(projectId, feedbackStatsBody.parse({ project_id: "t/p", metrics: METRICS, ...request }));
  const cover = cellCover(plan.bucketStarts.map((d) => d.getTime()), plan.filters.start.getTime(), plan.filters.end.getTime());
  return {
    cells: await queryCellStats({ filters: plan.filters, bucketStarts: plan.bucketStarts, metrics: plan.metrics, cover }),
    raw: await queryStats(plan.filters, plan.bucketStarts, plan.metrics),
  };
}

const EMPTY_ZERO = new Set(["sum", "count", "count_true", "count_false"]);

/** The cells' answer is the rows' one: exact but for percentiles, within the stated bound. */
async function expectSameAnswer(projectId: string, request: Record<string, unknown>) {
  const { cells, raw } = await bothWays(projectId, request);
  expect(cells, "the cells answer").toBeDefined();
  const occupied = (r: StatsResults) => [...r.buckets].filter(([b, result]) => b !== null && result.n > 0).map(([b, result]) => [b, result.n]).sort();
  expect(occupied(cells!)).toEqual(occupied(raw));
  let compared = 0;
  for (const [b, expected] of raw.buckets) {
    const actual = cells!.buckets.get(b)!;
    if (expected.n === 0) continue;
    for (const [key, value] of expected.stats) {
      const got = actual.stats.get(key);
      const name = key.split("/")[1];
      compared++;
      if (/^p\d/.test(name) && value !== null) {
        expect(got, `${key} of bucket ${b}`).toBeTypeOf("number");
        expect(Math.abs((got as number) - value), `${key} of bucket ${b}: ${got} against ${value}`).toBeLessThanOrEqual(PERCENTILE_RELATIVE_ERROR * Math.abs(value) + 1e-12);
      } else {
        expect(got ?? (EMPTY_ZERO.has(name) ? 0 : null), `${key} of bucket ${b}`).toBe(value ?? (EMPTY_ZERO.has(name) ? 0 : null));
      }
    }
  }
  expect(compared).toBeGreaterThan(0);
  const sorted = (r: StatsResults) => [...r.categories].sort((a, c) => String([a.metric, a.b, a.category]).localeCompare(String([c.metric, c.b, c.category])));
  expect(sorted(cells!)).toEqual(sorted(raw));
}

const REQUESTS: [string, Record<string, unknown>][] = [
  ["hourly, aligned", { start: new Date(DAY0).toISOString(), end: new Date(DAY0 + 12 * HOUR).toISOString(), granularity: 3600 }],
  ["6-hourly, over the whole range", { start: new Date(DAY0).toISOString(), end: new Date(DAY0 + 12 * HOUR).toISOString(), granularity: 21_600 }],
  ["hourly, unaligned start and end (edges from the rows)", { start: new Date(DAY0 + 7 * 60_000).toISOString(), end: new Date(DAY0 + 11 * HOUR + 50 * 60_000).toISOString(), granularity: 3600 }],
  ["hourly in Asia/Kathmandu (+05:45: 15-minute cells)", { start: new Date(DAY0 + 15 * 60_000).toISOString(), end: new Date(DAY0 + 11 * HOUR + 15 * 60_000).toISOString(), granularity: 3600, timezone: "Asia/Kathmandu" }],
  ["one feedback type", { start: new Date(DAY0).toISOString(), end: new Date(DAY0 + 12 * HOUR).toISOString(), granularity: 7200, feedback_type: "grade" }],
];

describe("cells and rows give the same answer", () => {
  it("after inserts, replaces, purges, deletes and updates", async () => {
    const project = await newProject();
    await getDb().feedback.createMany({ data: rows(project.id, 400, 1) }); // one statement, many rows
    for (const row of rows(project.id, 20, 2)) await getDb().feedback.create({ data: row }); // one row per statement
    for (const [, request] of REQUESTS) await expectSameAnswer(project.id, request);

    // Each hour's greatest and least score go (the cells take their extremes again from the rows),
    // in one transaction with an insert and an update.
    const all = await getDb().feedback.findMany({ where: { projectId: project.id }, select: { id: true, payload: true, createdAt: true } });
    const extremes = new Map<number, { lo: (typeof all)[number]; hi: (typeof all)[number] }>();
    for (const row of all) {
      const score = (row.payload as { score: unknown }).score;
      if (typeof score !== "number") continue;
      const hour = Math.floor(row.createdAt.getTime() / HOUR);
      const seen = extremes.get(hour);
      if (!seen) extremes.set(hour, { lo: row, hi: row });
      else {
        if (score < (seen.lo.payload as { score: number }).score) seen.lo = row;
        if (score > (seen.hi.payload as { score: number }).score) seen.hi = row;
      }
    }
    const gone = [...extremes.values()].flatMap(({ lo, hi }) => [lo.id, hi.id]);
    await getDb().$transaction([
      getDb().feedback.deleteMany({ where: { id: { in: gone } } }),
      getDb().feedback.createMany({ data: rows(project.id, 30, 3) }),
      getDb().feedback.update({ where: { id: all.find((r) => !gone.includes(r.id))!.id }, data: { payload: { score: 0.25, delta: -100, label: "updated" } } }),
    ]);
    for (const [, request] of REQUESTS) await expectSameAnswer(project.id, request);
  });

  it("through the routes: create, replace and purge keep the cells exact", async () => {
    const project = await newProject();
    const ref = (id: string) => `svc:///${project.ref}/call/${id}`;
    const created: string[] = [];
    for (const score of [5, 1.5, 9.25, 3]) {
      const { status, body } = await post("/feedback/create", { project_id: project.ref, weave_ref: ref(randomUUID()), feedback_type: "grade", payload: { score, ok: score > 2, label: `s${score}` } }, team.member);
      expect(status, JSON.stringify(body)).toBe(200);
      created.push(body.id);
    }
    const replaced = await post("/feedback/replace", { project_id: project.ref, feedback_id: created[2], weave_ref: ref(randomUUID()), feedback_type: "grade", payload: { score: 2, ok: false, label: "s2" } }, team.member);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const purged = await post("/feedback/purge", { project_id: project.ref, query: { $expr: { $eq: [{ $getField: "id" }, { $literal: created[0] }] } } }, team.member);
    expect(purged.status, JSON.stringify(purged.body)).toBe(200);

    // Rows 1.5, 3 and 2 are left: max 3 (9.25 and 5 are gone), sum 6.5.
    const now = Date.now();
    const request = { start: new Date(Math.floor(now / HOUR) * HOUR - HOUR).toISOString(), end: new Date(Math.floor(now / HOUR) * HOUR + 2 * HOUR).toISOString(), granularity: 3600 };
    await expectSameAnswer(project.id, request);
    const { cells } = await bothWays(project.id, request);
    expect(cells!.buckets.get(null)!.stats.get("0/max")).toBe(3);
    expect(cells!.buckets.get(null)!.stats.get("0/sum")).toBe(6.5);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("writers never wait on each other's cells (PostgreSQL: PGlite has one session)", () => {
  it("a writer commits while another transaction folds its project's notes; the next stats request folds them first", async () => {
    const project = await newProject();
    await getDb().feedback.createMany({ data: rows(project.id, 40, 7) });
    const folder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await folder.connect();
    try {
      // As a fold under way holds it.
      await folder.query("SELECT pg_advisory_lock(1718, hashtext($1))", [project.id]);
      const started = Date.now();
      await getDb().feedback.createMany({ data: rows(project.id, 30, 8) });
      await getDb().feedback.deleteMany({ where: { projectId: project.id, createdAt: { lt: new Date(DAY0 + HOUR) } } });
      expect(Date.now() - started).toBeLessThan(2000);
      const [{ notes }] = await getDatabase().sql.query<{ notes: number }>(`SELECT count(*)::int AS notes FROM "FeedbackStatPending" WHERE "projectId" = $1::uuid`, [project.id]);
      expect(notes).toBe(2);
    } finally {
      await folder.query("SELECT pg_advisory_unlock_all()");
      await folder.end();
    }
    for (const [, request] of REQUESTS) await expectSameAnswer(project.id, request);
  });
});

describe("which source answers, in the x-anneal-stats-source header", () => {
  const ask = async (ref: string, request: Record<string, unknown>) => {
    const response = await api("POST", "/feedback/stats", { body: { project_id: ref, metrics: METRICS, ...request }, basic: ["api", team.member.key] });
    expect(response.status, await response.clone().text()).toBe(200);
    return response.headers.get(STATS_SOURCE_HEADER);
  };

  it("cells, cells and rows, or rows alone", async () => {
    const project = await newProject();
    await getDb().feedback.createMany({ data: rows(project.id, 50, 4) });
    const [hourly, unaligned, kathmandu] = REQUESTS.map(([, request]) => request).filter((_, i) => [0, 2, 3].includes(i));
    expect(await ask(project.ref, hourly)).toBe("cells");
    expect(await ask(project.ref, unaligned)).toBe("cells+rows");
    expect(await ask(project.ref, kathmandu)).toBe("cells");
    // Buckets of 1,000 s start off the 15-minute grid; a trigger_ref filter is not aggregated.
    expect(await ask(project.ref, { ...hourly, granularity: 1000 })).toBe("rows");
    expect(await ask(project.ref, { ...hourly, trigger_ref: "svc:///x/y/object/m:*" })).toBe("rows");
    // Until 1972 Liberia kept −00:44:30: its hours start off the grid.
    expect(await ask(project.ref, { start: "1971-06-01T00:00:00Z", end: "1971-06-01T06:00:00Z", granularity: 3600, timezone: "Africa/Monrovia" })).toBe("rows");
  });

  it("rows when a payload in range has more values than aggregated, or a categorical metric's cell dropped its categories", async () => {
    const project = await newProject();
    const [base] = rows(project.id, 1, 5);
    const wide = Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`k${String(i).padStart(2, "0")}`, i]));
    await getDb().feedback.createMany({ data: [base, { ...base, payload: { ...wide, score: 4 } }] });
    const hourly = REQUESTS[0][1];
    expect(await ask(project.ref, hourly)).toBe("rows");

    const other = await newProject();
    await getDb().feedback.createMany({ data: [{ ...base, projectId: other.id }, { ...base, projectId: other.id, payload: { score: 1, label: "x".repeat(129) } }] });
    expect(await ask(other.ref, hourly)).toBe("rows");
    expect(await ask(other.ref, { ...hourly, metrics: [METRICS[0]] })).toBe("cells");
  });
});

describe("the migration's backfill", () => {
  it("feedback_stats_rebuild() builds the cells the triggers keep", async () => {
    const project = await newProject();
    await getDb().feedback.createMany({ data: rows(project.id, 200, 6) });
    const cells = `SELECT "feedbackType", path, level, start, rows, partial, numbers, sum, lo, hi, histogram, trues, falses, categories, overflow
                   FROM "FeedbackStatCell" WHERE "projectId" = $1::uuid ORDER BY 1, 2, 3, 4`;
    const kept = await getDatabase().sql.query(cells, [project.id]);
    expect(kept.length).toBeGreaterThan(0);
    await getDatabase().sql.query("SELECT feedback_stats_rebuild($1::uuid)", [project.id]);
    expect(await getDatabase().sql.query(cells, [project.id])).toEqual(kept);
  });
});
