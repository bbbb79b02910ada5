import { beforeAll, describe, expect, it } from "vitest";
import { annotationSpecPage, annotationSpecSchema } from "@/lib/feedback/annotation-spec-schemas";
import { api, json } from "./http";
import { createTestTeam } from "./factories";
import { feedbackWorld, post, readFeedback } from "./feedback-fixtures";

// Annotation specs (create, list, get, update as a new version, delete) and annotation feedback
// checked against the spec version its annotation_ref names.

type World = Awaited<ReturnType<typeof feedbackWorld>>;
let w: World;
let specs: string;

beforeAll(async () => {
  w = await feedbackWorld();
  specs = `/v1/teams/${w.team.name}/projects/judging/annotation-specs`;
});

const call = (method: string, path: string, key: string, body?: unknown) => json(api(method, path, { bearer: key, body }));

const annotate = (spec: { name: string; ref: string }, value: unknown, extra: Record<string, unknown> = {}) =>
  post("/feedback/create", { project_id: w.project, svc_ref: w.callRef(), feedback_type: `wandb.annotation.${spec.name}`, annotation_ref: spec.ref, payload: { value }, ...extra }, w.team.annotator);

describe("annotation specs", () => {
  it("are created with a ref to their version, listed by name, read, redefined as new versions and deleted", async () => {
    const created = await call("POST", specs, w.team.member.key, { name: "helpfulness", description: "How helpful is the answer?", type: "numeric", min: 1, max: 5, integer: true });
    expect(created.status).toBe(201);
    const v1 = annotationSpecSchema.parse(created.body);
    expect(v1).toEqual({
      object: "annotation_spec", name: "helpfulness", description: "How helpful is the answer?", project: w.project,
      ref: `svc:///${w.project}/object/helpfulness:${v1.digest}`, digest: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), version: 1,
      type: "numeric", min: 1, max: 5, integer: true, created_at: expect.any(String), updated_at: v1.created_at,
    });
    expect(await call("POST", specs, w.team.admin.key, { name: "helpfulness", type: "boolean" })).toEqual({
      status: 409, body: { detail: `Annotation spec 'helpfulness' already exists in project '${w.project}'.` },
    });
    await call("POST", specs, w.team.member.key, { name: "tone", type: "categorical", options: ["formal", "casual"] });
    await call("POST", specs, w.team.member.key, { name: "correct", type: "boolean" });

    // Every role reads specs; pages are keyed by name.
    const first = annotationSpecPage.parse((await call("GET", `${specs}?limit=2`, w.team.annotator.key)).body);
    expect([first.data.map((s) => s.name), first.first_id, first.last_id, first.has_more]).toEqual([["correct", "helpfulness"], "correct", "helpfulness", true]);
    const rest = annotationSpecPage.parse((await call("GET", `${specs}?limit=2&after=helpfulness`, w.team.annotator.key)).body);
    expect([rest.data.map((s) => s.name), rest.has_more]).toEqual([["tone"], false]);
    expect((await call("GET", `${specs}?after=nope`, w.team.annotator.key)).status).toBe(422);
    expect((await call("GET", `${specs}/helpfulness`, w.team.annotator.key)).body).toEqual(v1);

    const same = await call("PUT", `${specs}/helpfulness`, w.team.member.key, { description: "How helpful is the answer?", type: "numeric", min: 1, max: 5, integer: true });
    expect(same.body).toEqual(v1); // unchanged: no new version
    const v2 = annotationSpecSchema.parse((await call("PUT", `${specs}/helpfulness`, w.team.member.key, { description: "Helpfulness, 1-10", type: "numeric", min: 1, max: 10 })).body);
    expect(v2).toMatchObject({ version: 2, max: 10, integer: false, created_at: v1.created_at });
    expect(v2.digest).not.toBe(v1.digest);
    expect((await call("GET", `${specs}/helpfulness`, w.team.member.key)).body).toEqual(v2);

    // An annotation is checked against the version its ref names.
    expect((await annotate(v1, 7)).body.detail[0]).toMatchObject({ loc: ["body", "payload", "value"], msg: "must be at most 5 (annotation spec 'helpfulness', numeric)" });
    expect((await annotate(v1, 2.5)).body.detail[0].msg).toMatch(/^must be a whole number/);
    const given = await annotate(v2, 7);
    expect(given.status).toBe(200);
    expect(await readFeedback(w.project, given.body.id, w.team.member)).toMatchObject({ annotation_ref: v2.ref, payload: { value: 7 } });

    expect(await call("DELETE", `${specs}/helpfulness`, w.team.member.key)).toEqual({ status: 200, body: { deleted: true, name: "helpfulness" } });
    expect((await call("GET", `${specs}/helpfulness`, w.team.member.key)).status).toBe(404);
    expect((await call("DELETE", `${specs}/helpfulness`, w.team.member.key)).status).toBe(404);
    expect(await annotate(v2, 7)).toEqual({ status: 404, body: { detail: `Annotation spec ${v2.ref} not found (or deleted) in project '${w.project}'.` } });
    // Feedback given against it stays; the name may be used again, counting versions on.
    expect(await readFeedback(w.project, given.body.id, w.team.member)).toBeDefined();
    const again = await call("POST", specs, w.team.member.key, { name: "helpfulness", type: "boolean" });
    expect(again.body).toMatchObject({ version: 3, type: "boolean" });
  });

  it("check each type's values, and refuse bad definitions", async () => {
    const make = async (body: Record<string, unknown>) => annotationSpecSchema.parse((await call("POST", specs, w.team.admin.key, body)).body);
    const flag = await make({ name: "flag", type: "boolean" });
    const style = await make({ name: "style", type: "categorical", options: ["terse", "verbose"] });
    const comment = await make({ name: "comment", type: "text", max_length: 5 });
    const fix = await make({ name: "fix", type: "corrected_reply" });
    expect(fix).toMatchObject({ max_length: 32768 });
    const cases: [typeof flag, unknown, string | null][] = [
      [flag, true, null], [flag, "yes", "must be true or false"],
      [style, "terse", null], [style, "Terse", 'must be one of "terse", "verbose"'],
      [comment, "short", null], [comment, "longer", "must be at most 5 characters"], [comment, "", "must not be empty"],
      [fix, "The corrected answer.", null], [fix, { role: "assistant" }, "must be a string"],
    ];
    for (const [spec, value, problem] of cases) {
      const { status, body } = await annotate(spec, value);
      expect({ status, msg: body.detail?.[0]?.msg?.replace(/ \(annotation spec.*$/, "") ?? null }).toEqual(problem ? { status: 422, msg: problem } : { status: 200, msg: null });
    }

    const refused: [Record<string, unknown>, string[]][] = [
      [{ name: "r1", type: "numeric", min: 5, max: 1 }, ["body", "max"]],
      [{ name: "r2", type: "categorical", options: ["a", "a"] }, ["body", "options"]],
      [{ name: "r3", type: "categorical", options: [] }, ["body", "options"]],
      [{ name: "r4", type: "stars" }, ["body", "type"]],
      [{ name: "bad name", type: "boolean" }, ["body", "name"]],
    ];
    for (const [body, loc] of refused) {
      const response = await call("POST", specs, w.team.admin.key, body);
      expect(response.status).toBe(422);
      expect(response.body.detail[0].loc).toEqual(loc);
    }
  });

  it("annotation feedback needs a ref to a spec of the project named by its type", async () => {
    const spec = annotationSpecSchema.parse((await call("POST", specs, w.team.admin.key, { name: "quality", type: "boolean" })).body);
    const other = annotationSpecSchema.parse((await call("POST", specs, w.team.admin.key, { name: "other", type: "boolean" })).body);
    const cases: [Record<string, unknown>, number, string[] | string][] = [
      [{ annotation_ref: undefined }, 422, ["body", "annotation_ref"]],
      [{ annotation_ref: other.ref }, 422, ["body", "annotation_ref"]],
      [{ annotation_ref: `svc:///${w.project}/object/quality:unknowndigest` }, 404, `Annotation spec svc:///${w.project}/object/quality:unknowndigest not found (or deleted) in project '${w.project}'.`],
      [{ annotation_ref: `svc:///${w.team.name}/elsewhere/object/quality:${spec.digest}` }, 422, ["body", "annotation_ref"]],
      [{ payload: { score: true } }, 422, ["body", "payload", "value"]],
      [{ svc_ref: `svc:///${w.project}/object/doc:1` }, 422, ["body", "svc_ref"]],
      [{ feedback_type: "wandb.annotation.bad name" }, 422, ["body", "feedback_type"]],
    ];
    for (const [change, status, expected] of cases) {
      const response = await annotate(spec, true, change);
      expect(response.status).toBe(status);
      if (typeof expected === "string") expect(response.body.detail).toBe(expected);
      else expect(response.body.detail[0].loc).toEqual(expected);
    }
    const weaveRef = spec.ref.replace("svc:///", "weave:///");
    expect((await annotate(spec, false, { annotation_ref: weaveRef })).status).toBe(200);
  });

  it("annotators read specs but do not write them; another team's project is a 404", async () => {
    expect(await call("POST", specs, w.team.annotator.key, { name: "x", type: "boolean" })).toEqual({
      status: 403, body: { detail: "Your role in this team does not allow this action." },
    });
    const other = await createTestTeam();
    const foreign = `/v1/teams/${other.name}/projects/judging/annotation-specs`;
    await call("POST", foreign, other.admin.key, { name: "secret", type: "boolean" });
    for (const [method, path] of [["GET", foreign], ["GET", `${foreign}/secret`], ["DELETE", `${foreign}/secret`]]) {
      expect(await call(method, path, w.team.admin.key)).toEqual({ status: 404, body: { detail: `Team '${other.name}' not found.` } });
    }
    expect((await call("GET", `${foreign}/secret`, other.member.key)).status).toBe(200);
  });
});
