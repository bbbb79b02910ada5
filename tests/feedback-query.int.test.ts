import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { feedbackQueryResult, MAX_QUERY_ROWS } from "@/lib/feedback/schemas";
import { feedbackWorld, post } from "./feedback-fixtures";

// POST /feedback/query (W&B Weave's query language compiled to SQL) and /feedback/purge.

type World = Awaited<ReturnType<typeof feedbackWorld>>;
let w: World;
/** Each seeded row's id by its creator tag. */
const ids: Record<string, string> = {};

const SEED: { creator: string; type: string; payload: Record<string, unknown> }[] = [
  { creator: "a", type: "grade", payload: { score: 5, label: "Good", flag: true, nested: { depth: 2 }, note: "Clear and Correct" } },
  { creator: "b", type: "grade", payload: { score: 3.5, label: "fair", flag: false, nested: { depth: 10 } } },
  { creator: "c", type: "grade", payload: { score: "12", label: "good", flag: "true" } },
  { creator: "d", type: "grade", payload: { score: 40, label: "bad", "dotted.key": "yes" } },
  { creator: "e", type: "other", payload: { note: "needs a correct answer", list: [10, 20] } },
];

beforeAll(async () => {
  w = await feedbackWorld();
  for (const row of SEED) {
    const { body } = await post("/feedback/create", { project_id: w.project, svc_ref: w.callRef(), feedback_type: row.type, creator: row.creator, payload: row.payload }, w.team.member);
    ids[row.creator] = body.id;
  }
});

/** The creators of the rows a query matches, in the order returned. */
async function creators(expr: unknown, extra: Record<string, unknown> = {}): Promise<string[]> {
  const { status, body } = await post("/feedback/query", { project_id: w.project, query: { $expr: expr }, fields: ["creator"], ...extra }, w.team.member);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.result.map((r: { creator: string }) => r.creator);
}

const field = (name: string) => ({ $getField: name });
const lit = (value: unknown) => ({ $literal: value });

describe("query operators", () => {
  it("$eq on a column and on payload paths (a dotted key escaped with \\.)", async () => {
    expect(await creators({ $eq: [field("feedback_type"), lit("other")] })).toEqual(["e"]);
    expect(await creators({ $eq: [field("payload.label"), lit("good")] })).toEqual(["c"]);
    expect(await creators({ $eq: [field("payload.nested.depth"), lit(10)] })).toEqual(["b"]);
    expect(await creators({ $eq: [field("payload.dotted\\.key"), lit("yes")] })).toEqual(["d"]);
    expect(await creators({ $eq: [field("payload.list.1"), lit(20)] })).toEqual(["e"]);
    expect(await creators({ $eq: [lit("grade"), field("feedback_type")] })).toEqual(["a", "b", "c", "d"]);
  });

  it("$gt and $gte compare a payload path as a number when the literal is one (numeric strings too)", async () => {
    expect(await creators({ $gt: [field("payload.score"), lit(5)] })).toEqual(["c", "d"]);
    expect(await creators({ $gte: [field("payload.score"), lit(5)] })).toEqual(["a", "c", "d"]);
    // As text, "12" < "5": the literal decides.
    expect(await creators({ $gt: [field("payload.score"), lit("5")] })).toEqual([]);
  });

  it("$convert to double, int, bool, string and exists", async () => {
    const asDouble = { $convert: { input: field("payload.score"), to: "double" } };
    expect(await creators({ $gte: [asDouble, lit(3.5)] })).toEqual(["a", "b", "c", "d"]);
    expect(await creators({ $eq: [{ $convert: { input: field("payload.score"), to: "int" } }, lit(12)] })).toEqual(["c"]);
    expect(await creators({ $eq: [{ $convert: { input: field("payload.flag"), to: "bool" } }, lit(true)] })).toEqual(["a", "c"]);
    expect(await creators({ $convert: { input: field("payload.flag"), to: "bool" } })).toEqual(["a", "c"]);
    expect(await creators({ $eq: [{ $convert: { input: field("payload.score"), to: "string" } }, lit("3.5")] })).toEqual(["b"]);
    expect(await creators({ $convert: { input: field("payload.nested"), to: "exists" } })).toEqual(["a", "b"]);
  });

  it("$in over a list of operations or a $literal list", async () => {
    expect(await creators({ $in: [field("creator"), [lit("b"), lit("e"), lit("zz")]] })).toEqual(["b", "e"]);
    expect(await creators({ $in: [field("payload.score"), lit([3.5, 40])] })).toEqual(["b", "d"]);
    expect(await creators({ $in: [field("creator"), []] })).toEqual([]);
  });

  it("$contains, case-sensitive by default", async () => {
    const contains = (substr: string, case_insensitive?: boolean) => ({ $contains: { input: field("payload.note"), substr: lit(substr), case_insensitive } });
    expect(await creators(contains("correct"))).toEqual(["e"]);
    expect(await creators(contains("correct", true))).toEqual(["a", "e"]);
    expect(await creators({ $contains: { input: field("feedback_type"), substr: lit("rad") } })).toEqual(["a", "b", "c", "d"]);
  });

  it("$and, $or and $not (a row without the field is 'not equal')", async () => {
    const grade = { $eq: [field("feedback_type"), lit("grade")] };
    const high = { $gt: [field("payload.score"), lit(4)] };
    expect(await creators({ $and: [grade, high] })).toEqual(["a", "c", "d"]);
    expect(await creators({ $or: [{ $eq: [field("creator"), lit("a")] }, { $eq: [field("creator"), lit("e")] }] })).toEqual(["a", "e"]);
    expect(await creators({ $not: [high] })).toEqual(["b", "e"]);
  });

  it("created_at against ISO date-times and Unix seconds; refs against weave:/// literals", async () => {
    const past = new Date(Date.now() - 3_600_000);
    expect(await creators({ $gt: [field("created_at"), lit(past.toISOString())] })).toHaveLength(5);
    expect(await creators({ $gt: [field("created_at"), lit(Date.now() / 1000 + 3600)] })).toEqual([]);
    const row = await getDb().feedback.findUniqueOrThrow({ where: { id: ids.c } });
    expect(await creators({ $eq: [field("weave_ref"), lit(row.svcRef.replace("svc:///", "weave:///"))] })).toEqual(["c"]);
    expect(await creators({ $eq: [field("wb_user_id"), lit(w.team.member.principal.user.id)] })).toHaveLength(5);
    expect(await creators({ $eq: [field("project_id"), lit(w.project)] })).toHaveLength(5);
  });

  it("$eq with a null literal is IS NULL, over HTTP (null is a value inside a query, not a dropped field)", async () => {
    expect(await creators({ $eq: [field("payload.score"), lit(null)] })).toEqual(["e"]);
    expect(await creators({ $in: [field("payload.label"), [lit(null), lit("bad")]] })).toEqual(["d", "e"]);
  });

  it("an unsupported operator or an unknown field is a 400 that names it; a malformed operation a 422 at its place", async () => {
    const ask = (expr: unknown) => post("/feedback/query", { project_id: w.project, query: { $expr: expr } }, w.team.member);
    expect(await ask({ $lt: [field("creator"), lit("b")] })).toEqual({
      status: 400,
      body: { detail: "Unsupported query operator '$lt' at query.$expr.$lt: feedback queries take $and, $or, $not, $eq, $gt, $gte, $in, $contains, $getField, $literal, $convert." },
    });
    expect((await ask({ $and: [{ $regex: "x" }] })).body.detail).toMatch(/^Unsupported query operator '\$regex' at query\.\$expr\.\$and\.0\.\$regex/);
    expect((await ask({ $eq: [field("secret_column"), lit(1)] })).body.detail).toMatch(/^Unknown field 'secret_column'/);
    expect((await ask({ $eq: [field("creator")] })).body).toEqual({ detail: [{ loc: ["body", "query", "$expr", "$eq"], msg: "takes exactly 2 operands", type: "value_error" }] });
    expect((await ask({ $convert: { input: field("creator"), to: "float" } })).body.detail[0].loc).toEqual(["body", "query", "$expr", "$convert", "to"]);
    expect((await ask({ $eq: [field("creator"), lit({ a: 1 })] })).status).toBe(422);
    expect((await ask({ $and: [] })).status).toBe(422);
    expect((await ask({ $eq: [field("creator"), lit("a")], $gt: [field("creator"), lit("a")] })).body.detail[0].msg).toMatch(/exactly one operator/);
  });

  it("values are parameters, never SQL", async () => {
    expect(await creators({ $eq: [field("payload.x'); DROP TABLE \"Feedback\"; --"), lit("' OR 1=1 --")] })).toEqual([]);
    expect(await getDb().feedback.count()).toBeGreaterThan(0);
  });
});

describe("fields, sort_by, limit and offset", () => {
  it("returns every field by default, in Weave's row shape", async () => {
    const { body } = await post("/feedback/query", { project_id: w.project, query: { $expr: { $eq: [field("creator"), lit("a")] } } }, w.team.member);
    const row = feedbackQueryResult.parse(body).result[0];
    const ref = (await getDb().feedback.findUniqueOrThrow({ where: { id: ids.a } })).svcRef;
    expect(row).toEqual({
      id: ids.a, project_id: w.project, weave_ref: ref, svc_ref: ref, wb_user_id: w.team.member.principal.user.id, creator: "a",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/), feedback_type: "grade", payload: SEED[0].payload,
      annotation_ref: null, runnable_ref: null, call_ref: null, trigger_ref: null, queue_id: null,
    });
  });

  it("fields picks columns and payload paths (JSON values as they are)", async () => {
    const { body } = await post("/feedback/query", { project_id: w.project, fields: ["creator", "payload.score", "payload.nested"], sort_by: [{ field: "creator", direction: "asc" }], limit: 2 }, w.team.member);
    expect(body.result).toEqual([{ creator: "a", "payload.score": 5, "payload.nested": { depth: 2 } }, { creator: "b", "payload.score": 3.5, "payload.nested": { depth: 10 } }]);
    expect((await post("/feedback/query", { project_id: w.project, fields: ["nope"] }, w.team.member)).status).toBe(400);
  });

  it("sorts by payload paths (rows with the value first, numbers by value), columns, and pages with limit and offset", async () => {
    const sorted = (sort_by: unknown, extra = {}) => creators({ $eq: [lit(1), lit(1)] }, { sort_by, ...extra });
    expect(await sorted([{ field: "payload.score", direction: "desc" }])).toEqual(["d", "c", "a", "b", "e"]);
    expect(await sorted([{ field: "payload.score", direction: "ASC" }])).toEqual(["b", "a", "c", "d", "e"]);
    expect(await sorted([{ field: "feedback_type", direction: "desc" }, { field: "creator", direction: "desc" }])).toEqual(["e", "d", "c", "b", "a"]);
    expect(await sorted([{ field: "creator", direction: "asc" }], { limit: 2, offset: 1 })).toEqual(["b", "c"]);
    expect(await sorted([{ field: "creator", direction: "asc" }], { limit: 0 })).toEqual([]);
  });

  it(`without a limit, more than ${MAX_QUERY_ROWS} matches is a 400 rather than a silent cut`, async () => {
    const seeded = await feedbackWorld();
    // The first write creates the project; the rest are inserted directly, 10,000 at once.
    await post("/feedback/create", { project_id: seeded.project, svc_ref: seeded.callRef(), feedback_type: "x", payload: {} }, seeded.team.member);
    const projectId = (await getDb().project.findFirstOrThrow({ where: { name: "judging", team: { name: seeded.team.name } } })).id;
    await getDb().feedback.createMany({
      data: Array.from({ length: MAX_QUERY_ROWS }, () => ({ projectId, feedbackType: "x", payload: {}, svcRef: seeded.callRef(), wbUserId: seeded.team.member.principal.user.id })),
    });
    const all = await post("/feedback/query", { project_id: seeded.project, fields: ["id"] }, seeded.team.member);
    expect(all).toEqual({ status: 400, body: { detail: `More than ${MAX_QUERY_ROWS} feedback rows match: page through them with limit and offset.` } });
    expect((await post("/feedback/query", { project_id: seeded.project, fields: ["id"], limit: MAX_QUERY_ROWS }, seeded.team.member)).body.result).toHaveLength(MAX_QUERY_ROWS);
  });
});

describe("purge", () => {
  const create = async (creator: string) =>
    (await post("/feedback/create", { project_id: w.project, svc_ref: w.callRef(), feedback_type: "purgeable", creator, payload: {} }, w.team.member)).body.id as string;
  const byId = (id: string) => ({ $eq: [field("id"), lit(id)] });
  const left = async () => creators({ $eq: [field("feedback_type"), lit("purgeable")] }, { sort_by: [{ field: "creator", direction: "asc" }] });

  it("deletes the rows named by $eq, an $or of them, or $in; ids that name nothing are ignored", async () => {
    const [p1, p2, p3, p4] = [await create("p1"), await create("p2"), await create("p3"), await create("p4")];
    const purge = (expr: unknown) => post("/feedback/purge", { project_id: w.project, query: { $expr: expr } }, w.team.member);
    expect(await purge(byId(p1))).toEqual({ status: 200, body: {} });
    expect(await left()).toEqual(["p2", "p3", "p4"]);
    expect((await purge({ $eq: [lit(p2), field("id")] })).status).toBe(200);
    expect((await purge({ $or: [byId(p3), byId(randomUUID()), byId("not-a-uuid")] })).status).toBe(200);
    expect(await left()).toEqual(["p4"]);
    expect((await purge({ $in: [field("id"), [lit(p4)]] })).status).toBe(200);
    expect(await left()).toEqual([]);
  });

  it("refuses any query that does not select by id, deleting nothing", async () => {
    await create("kept");
    const refusals = [
      { $eq: [field("feedback_type"), lit("purgeable")] },
      { $gt: [field("id"), lit("0")] },
      { $or: [byId(randomUUID()), { $eq: [field("creator"), lit("kept")] }] },
      { $not: [byId(randomUUID())] },
    ];
    for (const expr of refusals) {
      const { status, body } = await post("/feedback/purge", { project_id: w.project, query: { $expr: expr } }, w.team.member);
      expect(status).toBe(400);
      expect(body.detail).toMatch(/^Feedback is purged by id only/);
    }
    expect(await left()).toEqual(["kept"]);
  });
});
