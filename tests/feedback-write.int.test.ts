import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { writtenFeedbackSchema } from "@/lib/feedback/schemas";
import { api, json } from "./http";
import { createTestTeam } from "./factories";
import { feedbackWorld, post, readFeedback } from "./feedback-fixtures";

// POST /feedback/create and /feedback/replace: each kind's rules, refs, sizes, the author, replace's
// one transaction, and who may touch whose rows.

type World = Awaited<ReturnType<typeof feedbackWorld>>;
let w: World;

beforeAll(async () => {
  w = await feedbackWorld();
});

const reaction = (emoji: unknown, extra: Record<string, unknown> = {}) => ({
  project_id: w.project, svc_ref: w.callRef(), feedback_type: "wandb.reaction.1", payload: { emoji }, ...extra,
});

describe("reactions", () => {
  it("hold one emoji; the server adds its alias and detoned forms, and the author is the caller, whatever wb_user_id says", async () => {
    const { status, body } = await post("/feedback/create", reaction("👍", { wb_user_id: w.team.admin.principal.user.id }), w.team.member);
    expect(status).toBe(200);
    expect(writtenFeedbackSchema.parse(body)).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      created_at: expect.stringMatching(/Z$/),
      wb_user_id: w.team.member.principal.user.id,
      payload: { emoji: "👍", alias: ":thumbs_up:", detoned: "👍", detoned_alias: ":thumbs_up:" },
    });
    const row = await getDb().feedback.findUniqueOrThrow({ where: { id: body.id } });
    expect(row.wbUserId).toBe(w.team.member.principal.user.id);

    const toned = await post("/feedback/create", reaction("👍🏽"), w.team.member);
    expect(toned.body.payload).toEqual({ emoji: "👍🏽", alias: ":thumbs_up_medium_skin_tone:", detoned: "👍", detoned_alias: ":thumbs_up:" });
    const zwj = await post("/feedback/create", reaction("👩‍💻"), w.team.member);
    expect(zwj.body.payload.alias).toBe(":u1f469_200d_1f4bb:");
    expect((await post("/feedback/create", reaction("❤"), w.team.member)).status).toBe(200); // lacking only its VS16
  });

  it.each([["👍👍"], ["a"], [""], [":)"], [5]])("refuse %j", async (emoji) => {
    const { status, body } = await post("/feedback/create", reaction(emoji), w.team.member);
    expect(status).toBe(422);
    expect(body.detail).toEqual([{ loc: ["body", "payload", "emoji"], msg: "must be exactly one emoji", type: "value_error" }]);
  });

  it("are about a call: an object ref is refused", async () => {
    const { status, body } = await post("/feedback/create", reaction("👍", { svc_ref: `svc:///${w.project}/object/doc:abc123` }), w.team.member);
    expect(status).toBe(422);
    expect(body.detail[0]).toMatchObject({ loc: ["body", "svc_ref"], msg: "must be a call ref, not an object ref" });
  });
});

describe("notes", () => {
  const note = (text: unknown) => ({ project_id: w.project, svc_ref: w.callRef(), feedback_type: "wandb.note.1", payload: { note: text } });

  it("are 1 to 1024 characters (code points, not bytes)", async () => {
    expect((await post("/feedback/create", note("é".repeat(1024)), w.team.member)).status).toBe(200);
    for (const bad of ["", "x".repeat(1025), 42]) {
      const { status, body } = await post("/feedback/create", note(bad), w.team.member);
      expect(status).toBe(422);
      expect(body.detail[0]).toMatchObject({ loc: ["body", "payload", "note"], msg: "must be a string of 1 to 1024 characters" });
    }
  });
});

describe("runnable feedback (what Weave's addScore sends)", () => {
  const score = (extra: Record<string, unknown>) => ({
    project_id: w.project, weave_ref: `weave:///${w.project}/call/${randomUUID()}`, feedback_type: "wandb.runnable.exact_match",
    payload: { output: { correct: true } }, runnable_ref: `weave:///${w.project}/op/exact_match:Xy12`, call_ref: `weave:///${w.project}/call/${randomUUID()}`, ...extra,
  });

  it("needs its runnable named by the type, a call_ref for an op, and an output; weave:/// refs are stored as svc:///", async () => {
    const ok = await post("/feedback/create", score({}), w.team.member);
    expect(ok.status).toBe(200);
    const row = await getDb().feedback.findUniqueOrThrow({ where: { id: ok.body.id } });
    expect(row.svcRef).toMatch(new RegExp(`^svc:///${w.project}/call/`));
    expect(row.runnableRef).toBe(`svc:///${w.project}/op/exact_match:Xy12`);
    expect(row.callRef).toMatch(/^svc:\/\/\//);

    const cases: [Record<string, unknown>, string[], string][] = [
      [{ runnable_ref: undefined }, ["body", "runnable_ref"], "Field required for runnable feedback"],
      [{ runnable_ref: `svc:///${w.project}/op/other:Xy12` }, ["body", "runnable_ref"], "must name 'exact_match' of feedback_type"],
      [{ call_ref: undefined }, ["body", "call_ref"], "Field required for runnable feedback on an op"],
      [{ payload: { score: 1 } }, ["body", "payload", "output"], "Field required"],
      [{ call_ref: `svc:///${w.project}/object/x:1` }, ["body", "call_ref"], "must be a call ref, not an object ref"],
    ];
    for (const [change, loc, msg] of cases) {
      const { status, body } = await post("/feedback/create", score(change), w.team.member);
      expect({ status, detail: body.detail[0] }).toEqual({ status: 422, detail: expect.objectContaining({ loc, msg }) });
    }
  });
});

describe("any other type", () => {
  const custom = (extra: Record<string, unknown>) => ({ project_id: w.project, feedback_type: "grader.v2", payload: { any: { json: [1, "two", true] } }, ...extra });

  it("takes any JSON object about any object, op or call of the project, under svc_ref or weave_ref", async () => {
    for (const ref of [`svc:///${w.project}/object/dataset:v3/attr/rows/index/4`, `svc:///${w.project}/op/openai.chat.completions.create:abc`, w.callRef()]) {
      const { status, body } = await post("/feedback/create", custom({ svc_ref: ref }), w.team.member);
      expect(status).toBe(200);
      expect(body.payload).toEqual({ any: { json: [1, "two", true] } });
    }
    const aliased = await post("/feedback/create", custom({ weave_ref: `weave:///${w.project}/object/doc:1`, trigger_ref: `weave:///${w.project}/object/monitor:9` }), w.team.member);
    expect(await readFeedback(w.project, aliased.body.id, w.team.member)).toMatchObject({
      svc_ref: `svc:///${w.project}/object/doc:1`, weave_ref: `svc:///${w.project}/object/doc:1`, trigger_ref: `svc:///${w.project}/object/monitor:9`,
    });
  });

  it("keeps a payload's nulls as sent: null means default for request fields, not inside the client's JSON", async () => {
    const payload = { verdict: null, scores: [1, null], nested: { why: null } };
    const { status, body } = await post("/feedback/create", custom({ svc_ref: w.callRef(), payload }), w.team.member);
    expect(status).toBe(200);
    expect(body.payload).toEqual(payload);
    expect(await readFeedback(w.project, body.id, w.team.member)).toMatchObject({ payload });
  });

  it("refuses refs that do not parse, point into another project, or disagree; reserved wandb. types; annotation_ref", async () => {
    const other = `${w.team.name}/elsewhere`;
    const cases: [Record<string, unknown>, string[], RegExp][] = [
      [{}, ["body", "svc_ref"], /^Field required/],
      [{ svc_ref: "https://example.com/x" }, ["body", "svc_ref"], /starts with svc:\/\/\//],
      [{ svc_ref: `svc:///${w.project}/table/x:1` }, ["body", "svc_ref"], /object\/<name>:<digest>/],
      [{ svc_ref: `svc:///${w.project}/object/nodigest` }, ["body", "svc_ref"], /object\/<name>:<digest>/],
      [{ svc_ref: `svc:///${w.project}/call/` }, ["body", "svc_ref"], /call\/<call id>/],
      [{ svc_ref: `svc:///${other}/call/${randomUUID()}` }, ["body", "svc_ref"], new RegExp(`points into project '${other}'`)],
      [{ svc_ref: w.callRef(), weave_ref: `weave:///${w.project}/call/${randomUUID()}` }, ["body", "weave_ref"], /names another ref/],
      [{ svc_ref: w.callRef(), trigger_ref: w.callRef() }, ["body", "trigger_ref"], /must be an object ref/],
      [{ svc_ref: w.callRef(), feedback_type: "wandb.something.1" }, ["body", "feedback_type"], /reserved/],
      [{ svc_ref: w.callRef(), annotation_ref: `svc:///${w.project}/object/score:1` }, ["body", "annotation_ref"], /only for annotation feedback/],
    ];
    for (const [change, loc, msg] of cases) {
      const { status, body } = await post("/feedback/create", custom(change), w.team.member);
      expect(status).toBe(422);
      expect(body.detail[0].loc).toEqual(loc);
      expect(body.detail[0].msg).toMatch(msg);
    }
    expect(await getDb().feedback.count({ where: { feedbackType: { in: ["grader.v2", "wandb.something.1"] }, svcRef: { contains: "elsewhere" } } })).toBe(0);
  });

  it("payloads over 1 MiB of JSON are 413 and nothing is written", async () => {
    const before = await getDb().feedback.count();
    const big = custom({ svc_ref: w.callRef(), payload: { text: "x".repeat(1024 * 1024) } });
    const { status, body } = await post("/feedback/create", big, w.team.member);
    expect({ status, body }).toEqual({ status: 413, body: { detail: "The payload is 1048587 bytes of JSON; feedback payloads are at most 1048576 (1 MiB)." } });
    const fits = custom({ svc_ref: w.callRef(), payload: { text: "x".repeat(1024 * 1024 - 11) } });
    expect((await post("/feedback/create", fits, w.team.member)).status).toBe(200);
    expect(await getDb().feedback.count()).toBe(before + 1);
  });

  it("a queue_id is a 404 until it names a live queue of the project", async () => {
    const queueId = randomUUID();
    const { status, body } = await post("/feedback/create", custom({ svc_ref: w.callRef(), queue_id: queueId }), w.team.member);
    expect({ status, body }).toEqual({ status: 404, body: { detail: `Annotation queue '${queueId}' not found or deleted.` } });
  });

  it("an id may be chosen; a taken one is 409", async () => {
    const id = randomUUID();
    expect((await post("/feedback/create", custom({ svc_ref: w.callRef(), id }), w.team.member)).body.id).toBe(id);
    const again = await post("/feedback/create", custom({ svc_ref: w.callRef(), id }), w.team.member);
    expect(again).toEqual({ status: 409, body: { detail: `Feedback '${id}' already exists: choose another id, or leave it out for a new one.` } });
  });

  it("Basic username:password works as api:<key> does", async () => {
    const response = await json(api("POST", "/feedback/create", { body: custom({ svc_ref: w.callRef() }), basic: [w.team.member.username, w.team.member.password] }));
    expect(response.status).toBe(200);
    expect(response.body.wb_user_id).toBe(w.team.member.principal.user.id);
  });
});

describe("replace", () => {
  const note = (text: string, extra: Record<string, unknown> = {}) => ({ project_id: w.project, svc_ref: w.callRef(), feedback_type: "wandb.note.1", payload: { note: text }, ...extra });

  it("deletes the old row and inserts a new one with a new id and created_at; an unknown feedback_id just creates", async () => {
    const old = await post("/feedback/create", note("first"), w.team.member);
    const replaced = await post("/feedback/replace", note("second", { feedback_id: old.body.id, wb_user_id: randomUUID() }), w.team.member);
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual({ id: expect.any(String), created_at: expect.any(String), wb_user_id: w.team.member.principal.user.id, payload: { note: "second" } });
    expect(replaced.body.id).not.toBe(old.body.id);
    expect(Date.parse(replaced.body.created_at)).toBeGreaterThanOrEqual(Date.parse(old.body.created_at));
    expect(await readFeedback(w.project, old.body.id, w.team.member)).toBeUndefined();
    expect(await readFeedback(w.project, replaced.body.id, w.team.member)).toMatchObject({ payload: { note: "second" } });

    const fresh = await post("/feedback/replace", note("new", { feedback_id: randomUUID() }), w.team.member);
    expect(fresh.status).toBe(200);
    const chosen = randomUUID();
    expect((await post("/feedback/replace", note("chosen id", { feedback_id: fresh.body.id, id: chosen }), w.team.member)).body.id).toBe(chosen);
    // Replacing a row by itself, keeping its id.
    expect((await post("/feedback/replace", note("same id", { feedback_id: chosen, id: chosen }), w.team.member)).body.id).toBe(chosen);
  });

  it("a rejected replace leaves the old row untouched: invalid payload, bad ref, 413, unknown queue, or an insert that fails", async () => {
    const old = await post("/feedback/create", note("keep me"), w.team.member);
    const taken = await post("/feedback/create", note("another row"), w.team.member);
    const rejected = [
      [note("", { feedback_id: old.body.id }), 422],
      [note("x", { feedback_id: old.body.id, svc_ref: "svc:///nope" }), 422],
      [{ ...note("x", { feedback_id: old.body.id }), feedback_type: "custom", payload: { text: "x".repeat(1024 * 1024) } }, 413],
      [note("x", { feedback_id: old.body.id, queue_id: randomUUID() }), 404],
      // Validation passes, the delete runs, then the insert hits a taken id: the delete is rolled back.
      [note("x", { feedback_id: old.body.id, id: taken.body.id }), 409],
    ] as const;
    for (const [body, status] of rejected) {
      expect((await post("/feedback/replace", body, w.team.member)).status).toBe(status);
      expect(await readFeedback(w.project, old.body.id, w.team.member)).toMatchObject({ id: old.body.id, payload: { note: "keep me" } });
    }
    expect(await readFeedback(w.project, taken.body.id, w.team.member)).toMatchObject({ payload: { note: "another row" } });
  });
});

describe("roles", () => {
  const note = (text: string, extra: Record<string, unknown> = {}) => ({ project_id: w.project, svc_ref: w.callRef(), feedback_type: "wandb.note.1", payload: { note: text }, ...extra });
  const purge = (id: string) => ({ project_id: w.project, query: { $expr: { $eq: [{ $getField: "id" }, { $literal: id }] } } });

  it("annotators create feedback, and replace or purge only rows they wrote", async () => {
    const mine = await post("/feedback/create", note("annotator's"), w.team.annotator);
    expect(mine.status).toBe(200);
    const replaced = await post("/feedback/replace", note("annotator's, revised", { feedback_id: mine.body.id }), w.team.annotator);
    expect(replaced.status).toBe(200);

    const members = await post("/feedback/create", note("member's"), w.team.member);
    expect(await post("/feedback/replace", note("taken over", { feedback_id: members.body.id }), w.team.annotator)).toEqual({
      status: 403, body: { detail: "Annotators may replace only feedback they wrote." },
    });
    expect(await post("/feedback/purge", purge(members.body.id), w.team.annotator)).toEqual({ status: 403, body: { detail: "Annotators may purge only feedback they wrote." } });
    // One of theirs and one of someone else's: nothing is purged.
    const both = { project_id: w.project, query: { $expr: { $or: [purge(replaced.body.id).query.$expr, purge(members.body.id).query.$expr] } } };
    expect((await post("/feedback/purge", both, w.team.annotator)).status).toBe(403);
    expect(await readFeedback(w.project, members.body.id, w.team.member)).toMatchObject({ payload: { note: "member's" } });
    expect(await readFeedback(w.project, replaced.body.id, w.team.member)).toBeDefined();

    expect(await post("/feedback/purge", purge(replaced.body.id), w.team.annotator)).toEqual({ status: 200, body: {} });
    expect(await readFeedback(w.project, replaced.body.id, w.team.member)).toBeUndefined();
  });

  it("members and admins replace and purge anyone's rows", async () => {
    const annotators = await post("/feedback/create", note("by the annotator"), w.team.annotator);
    const byMember = await post("/feedback/replace", note("by the member", { feedback_id: annotators.body.id }), w.team.member);
    expect(byMember.body.wb_user_id).toBe(w.team.member.principal.user.id);
    expect((await post("/feedback/purge", purge(byMember.body.id), w.team.admin)).status).toBe(200);
    expect(await readFeedback(w.project, byMember.body.id, w.team.member)).toBeUndefined();
  });

  it("a member's first write creates the project; an annotator's is a 404", async () => {
    const fresh = `${w.team.name}/fresh-${randomUUID().slice(0, 8)}`;
    const body = { project_id: fresh, svc_ref: `svc:///${fresh}/call/${randomUUID()}`, feedback_type: "wandb.note.1", payload: { note: "hi" } };
    expect(await post("/feedback/create", body, w.team.annotator)).toEqual({ status: 404, body: { detail: `Project '${fresh}' not found.` } });
    expect((await post("/feedback/create", body, w.team.member)).status).toBe(200);
    expect((await post("/feedback/create", body, w.team.annotator)).status).toBe(200);
  });
});

describe("tenant isolation", () => {
  it("another team's project is a 404 to every feedback route, and its rows are out of reach by id", async () => {
    const other = await createTestTeam();
    const otherProject = `${other.name}/judging`;
    const foreign = await post("/feedback/create", { project_id: otherProject, svc_ref: `svc:///${otherProject}/call/${randomUUID()}`, feedback_type: "x", payload: {} }, other.member);
    expect(foreign.status).toBe(200);

    const notFound = { status: 404, body: { detail: `Team '${other.name}' not found.` } };
    const svc_ref = `svc:///${otherProject}/call/${randomUUID()}`;
    expect(await post("/feedback/create", { project_id: otherProject, svc_ref, feedback_type: "x", payload: {} }, w.team.admin)).toEqual(notFound);
    expect(await post("/feedback/replace", { project_id: otherProject, svc_ref, feedback_type: "x", payload: {}, feedback_id: foreign.body.id }, w.team.admin)).toEqual(notFound);
    expect(await post("/feedback/query", { project_id: otherProject }, w.team.admin)).toEqual(notFound);
    const byId = { $expr: { $eq: [{ $getField: "id" }, { $literal: foreign.body.id }] } };
    expect(await post("/feedback/purge", { project_id: otherProject, query: byId }, w.team.admin)).toEqual(notFound);

    // Aimed from one's own project, the foreign id names nothing: replace creates, purge deletes nothing.
    const own = { project_id: w.project, svc_ref: w.callRef(), feedback_type: "x", payload: {} };
    expect((await post("/feedback/replace", { ...own, feedback_id: foreign.body.id }, w.team.admin)).status).toBe(200);
    expect(await post("/feedback/purge", { project_id: w.project, query: byId }, w.team.admin)).toEqual({ status: 200, body: {} });
    expect(await readFeedback(otherProject, foreign.body.id, other.member)).toMatchObject({ id: foreign.body.id });
    // Nor does a query of one's own project see it.
    expect((await post("/feedback/query", { project_id: w.project, query: byId }, w.team.admin)).body).toEqual({ result: [] });
  });
});
