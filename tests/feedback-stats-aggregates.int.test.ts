import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDatabase, getDb } from "@/lib/db/client";
import { cellQuery, planStats, STATS_SOURCE_HEADER } from "@/lib/feedback/stats";
import { queryCellStats, queryStats, type StatsResults } from "@/lib/feedback/stats-query";
import { feedbackStatsBody } from "@/lib/feedback/stats-schema";
import { createTestTeam } from "./factories";
import { feedbackWorld, post } from "./feedback-fixtures";
import { api } from "./http";

// /feedback/stats from the aggregate cells against the same request from the rows: many request
// shapes over one data set (zones, granularities, aligned and unaligned ranges, filters, metrics),
// the cells written by the triggers as rows are created, replaced and purged (concurrently, which
// on PostgreSQL means several transactions at once), and the header saying which path answered.

/** Deterministic pseudo-random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FROM = Date.parse("2024-11-01T00:00:00Z");
const DAYS = 4;
const TYPES = ["grade", "monitor.score", "wandb.reaction.1"];
const TRIGGERS = [null, "svc:///t/p/object/mon:aaa", "svc:///t/p/object/mon:bbb", "svc:///t/p/object/mon2:ccc"];
const ZONES = ["UTC", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Australia/Eucla", "America/St_Johns", "Europe/London"];
const GRANULARITIES = [undefined, 300, 900, 1800, 3600, 5400, 7200, 21_600, 86_400];

function payload(next: () => number): Record<string, unknown> {
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const p: Record<string, unknown> = {};
  const score = pick([() => Math.round(next() * 100), () => next() * 1000 - 500, () => 0, () => -next() * 1e-6, () => 1e6 * next(), () => "5", () => true, () => undefined]);
  if (score() !== undefined) p.score = score();
  const ok = pick([true, false, false, "yes", undefined]);
  if (ok !== undefined) p.ok = ok;
  const label = pick(["good", "fair", "bad", "off topic", 3, undefined]);
  if (label !== undefined) p.label = label;
  if (next() < 0.5) p.nested = { deep: { x: Math.round(next() * 20) - 10 } };
  return p;
}

type Result = StatsResults;

/** The aggregate answer equals the raw one: counts, categories, extremes exactly; sums and means to
 *  rounding; percentiles within 1 % of the bucket's largest magnitude (docs/feedback.md's bound is
 *  1 % of the two values interpolated between, which this contains). */
function expectSame(cells: Result, raw: Result, context: string) {
  const keys = new Set([...cells.buckets.keys(), ...raw.buckets.keys()]);
  for (const b of keys) {
    const got = cells.buckets.get(b);
    const want = raw.buckets.get(b);
    expect(got?.n ?? 0, `${context}: rows of bucket ${b}`).toBe(want?.n ?? 0);
    const names = new Set([...(got?.stats.keys() ?? []), ...(want?.stats.keys() ?? [])]);
    for (const key of names) {
      const [metric, name] = key.split("/");
      const g = got?.stats.get(key) ?? null;
      const w = want?.stats.get(key) ?? null;
      const where = `${context}: ${key} of bucket ${b}`;
      if (w === null || g === null) expect(g, where).toBe(w);
      else if (name === "sum" || name === "avg") expect(Math.abs(g - w), where).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(w)));
      else if (name.startsWith("p")) {
        const lo = want?.stats.get(`${metric}/min`) ?? 0;
        const hi = want?.stats.get(`${metric}/max`) ?? 0;
        expect(Math.abs(g - w), `${where}: ${g} against ${w}`).toBeLessThanOrEqual(0.01 * Math.max(Math.abs(lo), Math.abs(hi)) + 1e-12);
      } else expect(g, where).toBe(w);
    }
  }
  const sorted = (r: Result) => [...r.categories].sort((x, y) => `${x.metric}/${x.b}/${x.category}`.localeCompare(`${y.metric}/${y.b}/${y.category}`));
  expect(sorted(cells), `${context}: categories`).toEqual(sorted(raw));
}

/** A new project of a new team; its ids. */
async function newProject() {
  const team = await createTestTeam();
  const name = `agg-${randomUUID().slice(0, 8)}`;
  const project = await getDb().project.create({ data: { teamId: team.id, name } });
  return { team, project, ref: `${team.name}/${name}` };
}

describe("stats from the aggregate cells", () => {
  let world: Awaited<ReturnType<typeof newProject>>;

  beforeAll(async () => {
    world = await newProject();
    const next = random(7);
    // Written in a few multi-row statements (as a queue's submission writes), through the triggers.
    for (let batch = 0; batch < 4; batch++) {
      await getDb().feedback.createMany({
        data: Array.from({ length: 150 }, () => ({
          projectId: world.project.id,
          feedbackType: TYPES[Math.floor(next() * TYPES.length)],
          triggerRef: TRIGGERS[Math.floor(next() * TRIGGERS.length)],
          payload: payload(next) as object,
          svcRef: `svc:///${world.ref}/call/${randomUUID()}`,
          wbUserId: world.team.admin.principal.user.id,
          createdAt: new Date(FROM + Math.floor(next() * DAYS * 86_400_000)),
        })),
      });
    }
  });

  it("equal the rows' answer for many request shapes", async () => {
    const next = random(11);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
    let fromCells = 0;
    for (let round = 0; round < 100; round++) {
      const aligned = next() < 0.6;
      const start = FROM - 3_600_000 + (aligned ? Math.floor(next() * 4 * 24 * 5) * 900_000 : Math.floor(next() * (DAYS + 1) * 86_400_000));
      const length = aligned ? (1 + Math.floor(next() * 4 * 24 * 3)) * 900_000 : Math.floor(next() * 3 * 86_400_000) + 1000;
      const metrics = [
        { json_path: "score", aggregations: ["sum", "avg", "min", "max", "count"], percentiles: [0, 25, 50, 95, 100] },
        { json_path: "ok", value_type: "boolean", aggregations: ["sum", "avg", "min", "max", "count", "count_true", "count_false"] },
        { json_path: "label", value_type: "categorical" },
        { json_path: "nested.deep.x", aggregations: ["min", "max", "sum"], percentiles: [50] },
      ].filter(() => next() < 0.7);
      const filters = pick([{}, {}, { feedback_type: pick(TYPES) }, { trigger_ref: pick(TRIGGERS.slice(1)) }, { trigger_ref: "svc:///t/p/object/mon:*" }, { feedback_type: "grade", trigger_ref: "svc:///t/p/object/mon:*" }]);
      const body = feedbackStatsBody.parse({
        project_id: world.ref, start: new Date(start).toISOString(), end: new Date(start + length).toISOString(),
        granularity: pick(GRANULARITIES), timezone: pick(ZONES), metrics, ...filters,
      });
      const plan = planStats(world.project.id, body);
      const query = cellQuery(plan);
      if (!query) continue;
      fromCells++;
      const cells = await queryCellStats(query);
      expect(cells, "no payload here has more paths than are aggregated").toBeDefined();
      expectSame(cells!, await queryStats(plan.filters, plan.bucketStarts, plan.metrics), `round ${round} ${JSON.stringify({ ...body, metrics: metrics.map((m) => m.json_path) })}`);
    }
    expect(fromCells).toBeGreaterThan(25);
  });
});

/** The project's cells, in key order, as text (sums exactly). */
const cellsOf = (projectId: string) =>
  getDatabase().sql.query(
    `SELECT detail, level, path, start, "feedbackType", "triggerRef", kind, category, bin, n::text, sum::text, lo, hi, t::text
     FROM "FeedbackStatCell" WHERE "projectId" = $1 ORDER BY detail, level, path, start, "feedbackType", "triggerRef", kind, category, bin`,
    [projectId],
  );

describe("the cells as feedback is created, replaced and purged", () => {
  it("stay exactly what a rebuild from the rows gives, also when written concurrently", async () => {
    const w = await feedbackWorld();
    const next = random(3);
    const scores = Array.from({ length: 24 }, (_, i) => (i === 0 ? -1e6 : i === 1 ? 1e6 : Math.round(next() * 1000) / 10));
    const created = await Promise.all(
      scores.map(async (score, i) => {
        const { status, body } = await post("/feedback/create", { project_id: w.project, svc_ref: w.callRef(), feedback_type: i % 2 ? "grade" : "note", payload: { score, ok: i % 3 === 0, label: `l${i % 4}` } }, w.team.member);
        expect(status, JSON.stringify(body)).toBe(200);
        return body.id as string;
      }),
    );
    const projectId = (await getDb().project.findFirstOrThrow({ where: { name: "judging", team: { name: w.team.name } } })).id;
    // Replace the extremes and a few more, and purge others (the new extremes among them), at once.
    await Promise.all([
      ...created.slice(0, 8).map(async (id, i) => {
        const { status, body } = await post("/feedback/replace", { project_id: w.project, feedback_id: id, svc_ref: w.callRef(), feedback_type: "grade", payload: { score: i * 0.1, ok: true } }, w.team.member);
        expect(status, JSON.stringify(body)).toBe(200);
      }),
      ...created.slice(8, 16).map(async (id) => {
        const { status } = await post("/feedback/purge", { project_id: w.project, query: { $expr: { $eq: [{ $getField: "id" }, { $literal: id }] } } }, w.team.member);
        expect(status).toBe(200);
      }),
    ]);

    const written = await cellsOf(projectId);
    expect(written.length).toBeGreaterThan(0);
    await getDatabase().sql.query("SELECT feedback_stats_rebuild($1::uuid)", [projectId]);
    expect(written).toEqual(await cellsOf(projectId));

    // And the answer from them: counts, sums, extremes exactly those of the rows left.
    const left = [...created.slice(0, 8).map((_, i) => i * 0.1), ...scores.slice(16)];
    const now = Date.now();
    const start = new Date(now - (now % 900_000) - 86_400_000).toISOString();
    const end = new Date(now - (now % 900_000) + 900_000).toISOString();
    const response = await api("POST", "/feedback/stats", {
      basic: ["api", w.team.member.key],
      body: { project_id: w.project, start, end, granularity: 86_400 * 2, metrics: [{ json_path: "score", aggregations: ["count", "sum", "min", "max"] }] },
    });
    expect(response.headers.get(STATS_SOURCE_HEADER)).toBe("aggregates");
    const { window_stats: window } = await response.json();
    expect(window.score.count).toBe(left.length);
    expect(window.score.sum).toBeCloseTo(left.reduce((a, b) => a + b, 0), 9);
    expect([window.score.min, window.score.max]).toEqual([Math.min(...left), Math.max(...left)]);
  });
});

describe(`the ${STATS_SOURCE_HEADER} header`, () => {
  it("says whether the cells, the cells and the rows at the edges, or the rows alone answered", async () => {
    const { team, project, ref } = await newProject();
    const paths = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${String(i).padStart(2, "0")}`, i]));
    await getDb().feedback.createMany({
      data: [
        { at: "2024-05-01T00:20:00Z", payload: { score: 1 } },
        { at: "2024-05-02T00:20:00Z", payload: paths }, // more paths than are aggregated
      ].map((row) => ({ projectId: project.id, feedbackType: "grade", payload: row.payload, svcRef: `svc:///${ref}/call/${randomUUID()}`, wbUserId: team.admin.principal.user.id, createdAt: new Date(row.at) })),
    });
    const source = async (body: Record<string, unknown>) => {
      const response = await api("POST", "/feedback/stats", { basic: ["api", team.member.key], body: { project_id: ref, metrics: [{ json_path: "score" }], ...body } });
      expect(response.status).toBe(200);
      const { window_stats: window } = await response.json();
      return [response.headers.get(STATS_SOURCE_HEADER), window.score?.max];
    };
    const day = { start: "2024-05-01T00:00:00Z", end: "2024-05-02T00:00:00Z" };
    expect(await source({ ...day, granularity: 3600 })).toEqual(["aggregates", 1]);
    expect(await source({ ...day, start: "2024-05-01T00:07:00Z", granularity: 3600 })).toEqual(["aggregates+raw", 1]);
    // Percentiles are read from the rows: the cells' histograms measured slower (docs/feedback.md).
    expect(await source({ ...day, granularity: 3600, metrics: [{ json_path: "score", percentiles: [50] }] })).toEqual(["raw", 1]);
    // Seven-minute buckets hold no 15-minute cell.
    expect(await source({ ...day, granularity: 420 })).toEqual(["raw", 1]);
    expect(await source({ ...day, metrics: [{ json_path: Array.from({ length: 17 }, () => "a").join(".") }] })).toEqual(["raw", undefined]);
    // The second day holds a payload with more paths than the cells keep.
    expect(await source({ start: "2024-05-01T00:00:00Z", end: "2024-05-03T00:00:00Z", granularity: 3600 })).toEqual(["raw", 1]);
  });
});
