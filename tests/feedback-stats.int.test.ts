import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { PERCENTILE_RELATIVE_ERROR } from "@/lib/feedback/stats-histogram";
import { feedbackStatsResult } from "@/lib/feedback/stats-schema";
import { createTestTeam, createTestUser } from "./factories";
import { post } from "./feedback-fixtures";

// POST /feedback/stats against results computed by hand: bucket alignment in a zone's wall time
// (New York across both DST changes, Kolkata's half hour), every bucket and its empty values, each
// value type and aggregation, percentiles, the filters, the granularity rules and the 400s. Rows
// are inserted with their created_at set, into a project of their own per test.

type Team = Awaited<ReturnType<typeof createTestTeam>>;
let team: Team;

beforeAll(async () => {
  team = await createTestTeam();
});

interface Row {
  at: string;
  payload?: Record<string, unknown>;
  type?: string;
  trigger?: string;
}

/** A new project of `team` holding these rows; its `team/project` ref. */
async function projectWith(rows: Row[], owner: Team = team): Promise<string> {
  const name = `stats-${randomUUID().slice(0, 8)}`;
  const project = await getDb().project.create({ data: { teamId: owner.id, name } });
  await getDb().feedback.createMany({
    data: rows.map((row) => ({
      projectId: project.id,
      feedbackType: row.type ?? "grade",
      payload: (row.payload ?? {}) as object,
      svcRef: `svc:///${owner.name}/${name}/call/${randomUUID()}`,
      triggerRef: row.trigger ?? null,
      wbUserId: owner.admin.principal.user.id,
      createdAt: new Date(row.at),
    })),
  });
  return `${owner.name}/${name}`;
}

async function stats(body: Record<string, unknown>, as = team.member) {
  const { status, body: result } = await post("/feedback/stats", body, as);
  expect(status, JSON.stringify(result)).toBe(200);
  return feedbackStatsResult.parse(result);
}

const at = (...instants: string[]) => instants.map((instant) => ({ at: instant }));
/** [timestamp, count] of each bucket. */
const counts = (result: { buckets: Record<string, unknown>[] }) => result.buckets.map((b) => [b.timestamp, b.count]);
const z = (iso: string) => new Date(iso).toISOString(); // "…T05:00:00Z" → "…T05:00:00.000Z"
/** A percentile from the cells' histograms: within 1 % of the larger magnitude of the two values it
 *  interpolates between (`scale`). */
const nearly = (exact: number, scale = exact) => ({
  asymmetricMatch: (actual: unknown) => typeof actual === "number" && Math.abs(actual - exact) <= PERCENTILE_RELATIVE_ERROR * Math.abs(scale),
  toAsymmetricMatcher: () => `${exact} ± ${PERCENTILE_RELATIVE_ERROR * Math.abs(scale)}`,
});

describe("buckets in America/New_York", () => {
  it("hourly across spring forward (2024-03-10 02:00 EST → 03:00 EDT): 01:00 EST then 03:00 EDT; rows in [start, end)", async () => {
    const project = await projectWith(at(
      "2024-03-10T04:15:00Z", // before start
      "2024-03-10T04:45:00Z", // 23:45 EST, first bucket (the one containing start)
      "2024-03-10T06:59:59Z", // 01:59:59 EST
      "2024-03-10T07:00:00Z", // 03:00 EDT, the instant of the change
      "2024-03-10T07:30:00Z",
      "2024-03-10T08:30:00Z", // = end, excluded
    ));
    const result = await stats({ project_id: project, start: "2024-03-10T04:30:00Z", end: "2024-03-10T08:30:00Z", granularity: 3600, timezone: "America/New_York" });
    expect(counts(result)).toEqual([
      [z("2024-03-10T04:00:00Z"), 1], // 23:00 EST
      [z("2024-03-10T05:00:00Z"), 0], // 00:00 EST
      [z("2024-03-10T06:00:00Z"), 1], // 01:00 EST
      [z("2024-03-10T07:00:00Z"), 2], // 03:00 EDT
      [z("2024-03-10T08:00:00Z"), 0], // 04:00 EDT
    ]);
    expect(result).toMatchObject({ start: z("2024-03-10T04:30:00Z"), end: z("2024-03-10T08:30:00Z"), granularity: 3600, timezone: "America/New_York" });
  });

  it("hourly across fall back (2024-11-03 02:00 EDT → 01:00 EST): the repeated 01:00 is two buckets", async () => {
    const project = await projectWith(at("2024-11-03T05:30:00Z", "2024-11-03T06:30:00Z", "2024-11-03T06:45:00Z"));
    const result = await stats({ project_id: project, start: "2024-11-03T05:00:00Z", end: "2024-11-03T07:00:00Z", granularity: 3600, timezone: "America/New_York" });
    expect(counts(result)).toEqual([
      [z("2024-11-03T05:00:00Z"), 1], // 01:00 EDT
      [z("2024-11-03T06:00:00Z"), 2], // 01:00 EST
    ]);
  });

  it("days start at local midnight: 2024-03-10 lasts 23 h and 2024-11-03 25 h", async () => {
    const spring = await projectWith(at(
      "2024-03-10T04:59:00Z", // Mar 9 23:59 EST
      "2024-03-11T03:30:00Z", // Mar 10 23:30 EDT: still Mar 10, 22.5 h after its midnight
      "2024-03-11T04:30:00Z", // Mar 11 00:30 EDT
    ));
    expect(counts(await stats({ project_id: spring, start: "2024-03-09T05:00:00Z", end: "2024-03-12T04:00:00Z", granularity: 86_400, timezone: "America/New_York" }))).toEqual([
      [z("2024-03-09T05:00:00Z"), 1],
      [z("2024-03-10T05:00:00Z"), 1],
      [z("2024-03-11T04:00:00Z"), 1],
    ]);
    const fall = await projectWith(at(
      "2024-11-04T04:30:00Z", // Nov 3 23:30 EST: still Nov 3, 24.5 h after its midnight
      "2024-11-04T05:00:00Z", // Nov 4 00:00 EST
    ));
    expect(counts(await stats({ project_id: fall, start: "2024-11-02T04:00:00Z", end: "2024-11-05T05:00:00Z", timezone: "America/New_York", granularity: 86_400 }))).toEqual([
      [z("2024-11-02T04:00:00Z"), 0],
      [z("2024-11-03T04:00:00Z"), 1],
      [z("2024-11-04T05:00:00Z"), 1],
    ]);
  });
});

describe("buckets in Asia/Kolkata (+05:30)", () => {
  it("hours start at :30 UTC and days at 18:30 UTC", async () => {
    const project = await projectWith(at("2024-01-01T00:29:00Z", "2024-01-01T00:30:00Z", "2024-01-01T18:29:59Z", "2024-01-01T18:30:00Z"));
    const hourly = await stats({ project_id: project, start: "2024-01-01T00:00:00Z", end: "2024-01-01T01:00:00Z", granularity: 3600, timezone: "Asia/Kolkata" });
    expect(counts(hourly)).toEqual([[z("2023-12-31T23:30:00Z"), 1], [z("2024-01-01T00:30:00Z"), 1]]);
    const daily = await stats({ project_id: project, start: "2024-01-01T00:00:00Z", end: "2024-01-02T00:00:00Z", granularity: 86_400, timezone: "Asia/Kolkata" });
    expect(counts(daily)).toEqual([[z("2023-12-31T18:30:00Z"), 3], [z("2024-01-01T18:30:00Z"), 1]]);
  });
});

describe("metrics", () => {
  const hour = (h: number, minute = 0) => `2024-05-01T${String(h).padStart(2, "0")}:${String(minute).padStart(2, "0")}:00Z`;
  const range = { start: hour(0), end: hour(3), granularity: 3600 };

  it("numeric: sum, avg, min, max, count and percentiles (linear interpolation, within 1 %) per bucket and over the window; empty buckets 0 or null", async () => {
    const project = await projectWith([
      ...[4, 1, 3, 2].map((score, i) => ({ at: hour(0, i), payload: { score } })),
      // hour 1 is empty; in hour 2 only one value is a JSON number
      { at: hour(2), payload: { score: 10 } },
      { at: hour(2, 1), payload: { score: "5" } },
      { at: hour(2, 2), payload: { score: true } },
      { at: hour(2, 3), payload: { other: 1 } },
    ]);
    const result = await stats({
      project_id: project, ...range, metrics: [{ json_path: "score", aggregations: ["sum", "avg", "min", "max", "count"], percentiles: [50, 95, 99.9] }],
    });
    expect(result.buckets).toEqual([
      { timestamp: z(hour(0)), count: 4, sum_score: 10, avg_score: 2.5, min_score: 1, max_score: 4, count_score: 4, p50_score: nearly(2.5, 3), p95_score: nearly(3.85, 4), "p99.9_score": nearly(3.997, 4) },
      { timestamp: z(hour(1)), count: 0, sum_score: 0, avg_score: null, min_score: null, max_score: null, count_score: 0, p50_score: null, p95_score: null, "p99.9_score": null },
      { timestamp: z(hour(2)), count: 4, sum_score: 10, avg_score: 10, min_score: 10, max_score: 10, count_score: 1, p50_score: 10, p95_score: 10, "p99.9_score": 10 },
    ]);
    // Window: 1, 2, 3, 4, 10. p95 at rank 0.95 × 4 = 3.8: 4 + 0.8 × (10 − 4).
    expect(result.window_stats).toEqual({
      score: { sum: 20, avg: 4, min: 1, max: 10, count: 5, p50: nearly(3), p95: nearly(8.8, 10), "p99.9": nearly(9.976, 10) },
    });
  });

  it("two metrics with percentiles: one without values in a bucket keeps its nulls, and the other's percentiles stay in their own places", async () => {
    const project = await projectWith([
      { at: hour(0), payload: { a: 1, b: 10 } },
      { at: hour(0, 1), payload: { a: 3, b: 30 } },
      { at: hour(1), payload: { b: 20 } }, // no `a` in hour 1
    ]);
    const result = await stats({
      project_id: project, start: hour(0), end: hour(2), granularity: 3600,
      metrics: [{ json_path: "a", aggregations: ["count"], percentiles: [50] }, { json_path: "b", aggregations: ["count"], percentiles: [50] }],
    });
    expect(result.buckets).toEqual([
      { timestamp: z(hour(0)), count: 2, count_a: 2, p50_a: 2, count_b: 2, p50_b: 20 },
      { timestamp: z(hour(1)), count: 1, count_a: 0, p50_a: null, count_b: 1, p50_b: 20 },
    ]);
  });

  it("numeric by default: avg, min, max; a nested path's slug joins its keys with _, as spaces", async () => {
    const project = await projectWith([
      { at: hour(0), payload: { output: { score: 0.5 }, "Low quality": 1 } },
      { at: hour(0, 4), payload: { output: { score: 1.5 }, "Low quality": 0 } },
    ]);
    const result = await stats({ project_id: project, start: hour(0), end: hour(1), metrics: [{ json_path: "output.score" }, { json_path: "Low quality", aggregations: ["sum"] }] });
    expect(result.granularity).toBe(300);
    expect(result.buckets[0]).toEqual({ timestamp: z(hour(0)), count: 2, avg_output_score: 1, min_output_score: 0.5, max_output_score: 1.5, sum_Low_quality: 1 });
    expect(result.window_stats).toEqual({ output_score: { avg: 1, min: 0.5, max: 1.5 }, Low_quality: { sum: 1 } });
  });

  it("boolean: count_true and count_false by default; true/false as 1/0 for sum, avg, min, max; percentiles ignored", async () => {
    const project = await projectWith([
      ...[true, true, false].map((ok, i) => ({ at: hour(0, i), payload: { ok } })),
      { at: hour(0, 5), payload: { ok: "true" } },
      { at: hour(2), payload: { ok: false } },
    ]);
    const defaults = await stats({ project_id: project, ...range, metrics: [{ json_path: "ok", value_type: "boolean", percentiles: [50] }] });
    expect(defaults.buckets.map(({ timestamp: _, ...rest }) => rest)).toEqual([
      { count: 4, count_true_ok: 2, count_false_ok: 1 },
      { count: 0, count_true_ok: 0, count_false_ok: 0 },
      { count: 1, count_true_ok: 0, count_false_ok: 1 },
    ]);
    expect(defaults.window_stats).toEqual({ ok: { count_true: 2, count_false: 2 } });
    const all = await stats({ project_id: project, ...range, metrics: [{ json_path: "ok", value_type: "boolean", aggregations: ["sum", "avg", "min", "max", "count"] }] });
    expect(all.buckets[0]).toMatchObject({ sum_ok: 2, avg_ok: expect.closeTo(2 / 3, 12), min_ok: 0, max_ok: 1, count_ok: 3 });
    expect(all.buckets[1]).toMatchObject({ sum_ok: 0, avg_ok: null, min_ok: null, max_ok: null, count_ok: 0 });
    expect(all.window_stats.ok).toEqual({ sum: 2, avg: 0.5, min: 0, max: 1, count: 4 });
  });

  it("categorical: count is each category's rows, every bucket listing the window's categories", async () => {
    const project = await projectWith([
      { at: hour(0), payload: { grade: { label: "good" } } },
      { at: hour(0, 1), payload: { grade: { label: "good" } } },
      { at: hour(0, 2), payload: { grade: { label: "bad" } } },
      { at: hour(0, 3), payload: { grade: { label: 3 } } }, // not a string: no category
      { at: hour(2), payload: { grade: { label: "bad" } } },
      { at: hour(2, 1), payload: { grade: { label: "fair" } } },
    ]);
    const result = await stats({ project_id: project, ...range, metrics: [{ json_path: "grade.label", value_type: "categorical" }] });
    expect(result.buckets.map(({ timestamp: _, ...rest }) => rest)).toEqual([
      { count: 4, count_grade_label: { bad: 1, good: 2, fair: 0 } },
      { count: 0, count_grade_label: { bad: 0, good: 0, fair: 0 } },
      { count: 2, count_grade_label: { bad: 1, good: 0, fair: 1 } },
    ]);
    expect(result.window_stats).toEqual({ grade_label: { count: { bad: 2, good: 2, fair: 1 } } });
    expect(Object.keys(result.window_stats.grade_label.count as object)).toEqual(["bad", "good", "fair"]); // most frequent first, ties by value
  });

  it("several metrics of each type in one request, in the order asked; two categorical metrics are counted apart", async () => {
    const project = await projectWith([
      { at: hour(0), payload: { score: 2, ok: true, label: "a", tone: "calm" } },
      { at: hour(0, 10), payload: { score: 4, label: "a", tone: "curt" } },
      { at: hour(1), payload: { label: "b", tone: "curt" } },
    ]);
    const result = await stats({
      project_id: project, start: hour(0), end: hour(2), granularity: 3600,
      metrics: [{ json_path: "label", value_type: "categorical" }, { json_path: "score", percentiles: [50] }, { json_path: "ok", value_type: "boolean" }, { json_path: "tone", value_type: "categorical" }],
    });
    expect(Object.keys(result.buckets[0])).toEqual(["timestamp", "count", "count_label", "avg_score", "min_score", "max_score", "p50_score", "count_true_ok", "count_false_ok", "count_tone"]);
    expect(result.buckets.map(({ timestamp: _, ...rest }) => rest)).toEqual([
      { count: 2, count_label: { a: 2, b: 0 }, avg_score: 3, min_score: 2, max_score: 4, p50_score: 3, count_true_ok: 1, count_false_ok: 0, count_tone: { curt: 1, calm: 1 } },
      { count: 1, count_label: { a: 0, b: 1 }, avg_score: null, min_score: null, max_score: null, p50_score: null, count_true_ok: 0, count_false_ok: 0, count_tone: { curt: 1, calm: 0 } },
    ]);
    expect(result.window_stats).toEqual({
      label: { count: { a: 2, b: 1 } }, score: { avg: 3, min: 2, max: 4, p50: 3 }, ok: { count_true: 1, count_false: 0 }, tone: { count: { curt: 2, calm: 1 } },
    });
  });

  it("without metrics the buckets count rows; with no rows the window's stats are empty values", async () => {
    const project = await projectWith([]);
    const bare = await stats({ project_id: project, start: hour(0), end: hour(1), granularity: 1800 });
    expect(bare.buckets).toEqual([{ timestamp: z(hour(0)), count: 0 }, { timestamp: z(hour(0, 30)), count: 0 }]);
    expect(bare.window_stats).toEqual({});
    const empty = await stats({ project_id: project, start: hour(0), end: hour(1), metrics: [{ json_path: "s", aggregations: ["sum", "avg", "count"], percentiles: [90] }, { json_path: "c", value_type: "categorical" }] });
    expect(empty.window_stats).toEqual({ s: { sum: 0, avg: null, count: 0, p90: null }, c: { count: {} } });
  });
});

describe("filters", () => {
  const t = "2024-06-01T00:00:00Z";
  const range = { start: t, end: "2024-06-01T01:00:00Z", granularity: 3600 };

  it("trigger_ref: exact, or every version with :* (prefix plus ':', so mon:* is not monitor2), weave:/// or svc:///", async () => {
    const name = `stats-${randomUUID().slice(0, 8)}`;
    const ref = (object: string) => `svc:///${team.name}/${name}/object/${object}`;
    const project = await getDb().project.create({ data: { teamId: team.id, name } });
    const triggers = [ref("mon:v1"), ref("mon:v2"), ref("monitor2:v1"), ref("mon_x:v1"), null];
    await getDb().feedback.createMany({
      data: triggers.map((triggerRef) => ({ projectId: project.id, feedbackType: "grade", payload: {}, svcRef: ref("doc:d1"), triggerRef, wbUserId: team.admin.principal.user.id, createdAt: new Date(t) })),
    });
    const count = async (trigger_ref: string) => (await stats({ project_id: `${team.name}/${name}`, ...range, trigger_ref })).buckets[0].count;
    expect(await count(ref("mon:v1"))).toBe(1);
    expect(await count(ref("mon:*"))).toBe(2);
    expect(await count(ref("mon:*").replace("svc:///", "weave:///"))).toBe(2);
    expect(await count(ref("mon_:*"))).toBe(0); // `_` is no wildcard
    expect(await count(ref("monitor2:*"))).toBe(1);
    expect(await count(ref("mon"))).toBe(0);
  });

  it("feedback_type is exact", async () => {
    const project = await projectWith([{ at: t, type: "wandb.reaction.1" }, { at: t, type: "wandb.note.1" }, { at: t, type: "wandb.note.1" }]);
    expect((await stats({ project_id: project, ...range, feedback_type: "wandb.note.1" })).buckets[0].count).toBe(2);
    expect((await stats({ project_id: project, ...range, feedback_type: "wandb.note" })).buckets[0].count).toBe(0);
  });
});

describe("granularity", () => {
  it.each([
    [7200, 300], [7201, 3600], [43_200, 3600], [43_201, 21_600], [259_200, 21_600], [259_201, 43_200], [1_209_600, 43_200], [1_209_601, 86_400],
  ])("auto for a range of %i s is %i s", async (seconds, granularity) => {
    const project = await projectWith([]);
    const start = Date.parse("2024-02-01T00:00:00Z");
    const result = await stats({ project_id: project, start: new Date(start).toISOString(), end: new Date(start + seconds * 1000).toISOString() });
    expect(result.granularity).toBe(granularity);
    expect(result.buckets.length).toBe(Math.ceil(seconds / granularity));
  });

  it("more than 10,000 buckets raises it to fit: 30 days of minutes become 9,971 buckets of 260 s", async () => {
    const project = await projectWith(at("2024-02-01T00:00:00Z", "2024-03-01T23:59:59Z"));
    const result = await stats({ project_id: project, start: "2024-02-01T00:00:00Z", end: "2024-03-02T00:00:00Z", granularity: 60 });
    expect(result.granularity).toBe(260); // 2,592,000 s / 10,000 = 259.2
    // 260 s buckets counted from 1970-01-05: the one containing the start began 240 s before it.
    expect(result.buckets[0].timestamp).toBe(z("2024-01-31T23:56:00Z"));
    expect(result.buckets.length).toBe(9971);
    expect(Date.parse(result.buckets[1].timestamp as string) - Date.parse(result.buckets[0].timestamp as string)).toBe(260_000);
    expect(result.buckets.reduce((sum, b) => sum + (b.count as number), 0)).toBe(2);
  });

  it("end defaults to now", async () => {
    const project = await projectWith([]);
    const before = Date.now();
    const result = await stats({ project_id: project, start: new Date(before - 3_600_000).toISOString() });
    expect(Date.parse(result.end)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(result.end)).toBeLessThanOrEqual(Date.now());
  });
});

describe("refusals", () => {
  let project: string;
  beforeAll(async () => {
    project = await projectWith([]);
  });
  const base = () => ({ project_id: project, start: "2024-01-01T00:00:00Z", end: "2024-01-02T00:00:00Z" });

  it.each([
    [{ end: "2024-01-01T00:00:00Z" }, "must be after start"],
    [{ end: "2023-12-31T00:00:00Z" }, "must be after start"],
    [{ granularity: 0 }, "at least 1 second"],
    [{ granularity: -60 }, "at least 1 second"],
    [{ timezone: "Mars/Olympus" }, "Unknown time zone"],
    [{ timezone: "+05:30" }, "Unknown time zone"],
    [{ metrics: [{ json_path: "" }] }, "json_path cannot be empty"],
    [{ metrics: [{ json_path: "a..b" }] }, "json_path 'a..b'"],
    [{ metrics: [{ json_path: "list[0]" }] }, "json_path 'list[0]'"],
    [{ metrics: [{ json_path: "a-b" }] }, "json_path 'a-b'"],
    [{ metrics: [{ json_path: "x", percentiles: [101] }] }, "Percentile must be between 0 and 100, got 101"],
    [{ metrics: [{ json_path: "x", value_type: "categorical", aggregations: ["avg"] }] }, "does not apply to categorical"],
    [{ metrics: [{ json_path: "x", aggregations: ["count_true"] }] }, "does not apply to numeric"],
    [{ metrics: [{ json_path: "a.b" }, { json_path: "a_b" }] }, "same key suffix 'a_b'"],
  ])("400 for %j", async (change, message) => {
    const { status, body } = await post("/feedback/stats", { ...base(), ...change }, team.member);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.detail).toContain(message);
  });

  it.each([
    [{ metrics: [{ json_path: "x", aggregations: ["average"] }] }, ["body", "metrics", "0", "aggregations", "0"]],
    [{ metrics: [{ json_path: "x", value_type: "text" }] }, ["body", "metrics", "0", "value_type"]],
    [{ granularity: 1.5 }, ["body", "granularity"]],
    [{ start: "yesterday" }, ["body", "start"]],
  ])("422 for %j", async (change, loc) => {
    const { status, body } = await post("/feedback/stats", { ...base(), ...change }, team.member);
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(loc);
  });

  it("a metric whose values overflow double precision is a 400, not a 500", async () => {
    const big = await projectWith([{ at: "2024-01-01T01:00:00Z", payload: { x: 1.5e308 } }, { at: "2024-01-01T02:00:00Z", payload: { x: 1.5e308 } }]);
    const { status, body } = await post("/feedback/stats", { ...base(), project_id: big, metrics: [{ json_path: "x", aggregations: ["sum"] }] }, team.member);
    expect(status, JSON.stringify(body)).toBe(400);
    expect(body.detail).toContain("'x'");
    // Within one cell (its exact sum is past double precision) as across cells.
    const oneHour = await projectWith([{ at: "2024-01-01T01:00:00Z", payload: { x: 1.5e308 } }, { at: "2024-01-01T01:30:00Z", payload: { x: 1.5e308 } }]);
    const same = await post("/feedback/stats", { ...base(), project_id: oneHour, metrics: [{ json_path: "x", aggregations: ["sum"] }] }, team.member);
    expect(same.status, JSON.stringify(same.body)).toBe(400);
  });
});

describe("tenancy and roles", () => {
  it("counts only the project's own rows; another team's project is a 404 (as an unknown one); annotators read stats", async () => {
    const t = "2024-07-01T00:00:00Z";
    const mine = await projectWith(at(t, t));
    await projectWith(at(t, t, t)); // a sibling project of the same team
    const other = await createTestTeam();
    const theirs = await projectWith(at(t), other);
    const body = (project_id: string) => ({ project_id, start: t, end: "2024-07-01T01:00:00Z" });

    expect((await stats(body(mine))).buckets[0].count).toBe(2);
    expect((await stats(body(mine), team.annotator)).buckets[0].count).toBe(2);
    for (const project of [theirs, `${other.name}/nothing-here`, `${team.name}/nothing-here`]) {
      const { status } = await post("/feedback/stats", body(project), team.member);
      expect(status).toBe(404);
    }
    const stranger = await createTestUser();
    expect((await post("/feedback/stats", body(mine), stranger)).status).toBe(404);
  });
});
