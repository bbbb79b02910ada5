import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { annotationSpecSchema } from "@/lib/feedback/annotation-spec-schemas";
import { api, json } from "./http";
import { post, readFeedback } from "./feedback-fixtures";
import { call, createQueue, queueWorld, recordCall, type QueueWorld } from "./queues-fixtures";

// A preferred-choice spec: the value {preferred, over} names two answers of one recorded call, and
// is checked against that call's choices — on /feedback/create and on a queue item's submission.

let w: QueueWorld;
let spec: { name: string; ref: string };
let pair: string; // a call made with n = 3
let single: string; // a call with one answer

beforeAll(async () => {
  w = await queueWorld(0);
  const created = await json(api("POST", `/v1/teams/${w.team.name}/projects/judging/annotation-specs`, { bearer: w.team.member.key, body: { name: "better", type: "preferred_choice" } }));
  expect(created.status).toBe(201);
  spec = annotationSpecSchema.parse(created.body);
  pair = await recordCall(w.projectId, "", { answers: ["Four.", "4", "It is four."] });
  single = await recordCall(w.projectId, "4");
});

const ref = (callId: string) => `svc:///${w.project}/call/${callId}`;
const annotate = (callId: string, value: unknown) =>
  post("/feedback/create", { project_id: w.project, svc_ref: ref(callId), feedback_type: "wandb.annotation.better", annotation_ref: spec.ref, payload: { value } }, w.team.annotator);

describe("a preferred-choice spec", () => {
  it("is created without settings (others are ignored)", async () => {
    expect(spec).toMatchObject({ name: "better", type: "preferred_choice", version: 1 });
    expect(await json(api("POST", `/v1/teams/${w.team.name}/projects/judging/annotation-specs`, { bearer: w.team.member.key, body: { name: "b2", type: "preferred_choice", options: ["a"] } }))).toMatchObject({ status: 201 });
  });

  it("takes {preferred, over} among the call's choices and stores it as sent", async () => {
    const given = await annotate(pair, { preferred: 2, over: 0 });
    expect(given.status).toBe(200);
    expect(await readFeedback(w.project, given.body.id, w.team.member)).toMatchObject({ annotation_ref: spec.ref, payload: { value: { preferred: 2, over: 0 } } });
  });

  it("refuses a malformed value and indexes beyond the call's choices (422 at the value), one answer (400), a call not recorded (404)", async () => {
    expect(await annotate(pair, 1)).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "payload", "value"], msg: "must be an object {preferred, over} of two choice indexes (annotation spec 'better', preferred_choice)", type: "value_error" }] },
    });
    expect((await annotate(pair, { preferred: 1, over: 1 })).body.detail[0].msg).toMatch(/^preferred and over must be two different choices/);
    expect(await annotate(pair, { preferred: 3, over: 0 })).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "payload", "value", "preferred"], msg: "choice 3 does not exist: the call has 3 choices (0 to 2)", type: "value_error" }] },
    });
    expect(await annotate(single, { preferred: 1, over: 0 })).toEqual({ status: 400, body: { detail: `Call '${single}' has one choice: a preferred choice needs a call made with n >= 2.` } });
    const unknown = randomUUID();
    expect(await annotate(unknown, { preferred: 1, over: 0 })).toEqual({
      status: 404, body: { detail: `Call '${unknown}' not found in the project: a preferred choice is checked against the call's choices.` },
    });
    // Weave's own call ids (not UUIDs) name no recorded call: a 404, not a database error.
    expect((await annotate("weave-call-1", { preferred: 1, over: 0 })).status).toBe(404);
  });

  it("is checked against the item's call when a queue item is submitted, with its place in the values", async () => {
    const { queue, items } = await createQueue(w, { specs: [{ name: "better" }] }, [pair, single]);
    const [onPair, onSingle] = items;
    const submit = (itemId: string, values: Record<string, unknown>) => call(w.team.annotator, "POST", `/annotation_queues/${queue.id}/items/${itemId}/submit`, { values });
    expect(await submit(onPair.id, { better: { preferred: 0, over: 7 } })).toEqual({
      status: 422,
      body: { detail: [{ loc: ["body", "values", "better", "over"], msg: "choice 7 does not exist: the call has 3 choices (0 to 2)", type: "value_error" }] },
    });
    expect((await submit(onSingle.id, { better: { preferred: 1, over: 0 } })).status).toBe(400);
    const done = await submit(onPair.id, { better: { preferred: 1, over: 2 } });
    expect(done.status).toBe(200);
    expect(done.body.feedback).toEqual([{ id: expect.any(String), feedback_type: "wandb.annotation.better", payload: { value: { preferred: 1, over: 2 } } }]);
    // Agreement compares pairs exactly, and alpha treats a choice as one nominal label (one annotator so far: no item counted).
    const stats = await call(w.team.member, "GET", `/annotation_queues/${queue.id}/stats`);
    expect(stats.body.agreement).toEqual([{ spec: "better", type: "preferred_choice", items: 0, agreeing: 0, rate: null, alpha: null, alpha_metric: "nominal" }]);
  });

  it("does not break feedback stats: the pair's indexes are numeric keys, the value itself no number", async () => {
    const keys = await post("/feedback/stats/keys", { project_id: w.project, feedback_type: "wandb.annotation.better" }, w.team.member);
    expect(keys.status).toBe(200);
    expect(keys.body.keys).toEqual(expect.arrayContaining([{ json_path: "value.over", value_kind: "number" }, { json_path: "value.preferred", value_kind: "number" }]));
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const stats = await post(
      "/feedback/stats",
      { project_id: w.project, start, feedback_type: "wandb.annotation.better", metrics: [{ json_path: "value", value_type: "numeric", aggregations: ["avg", "count"] }, { json_path: "value.preferred", value_type: "numeric", aggregations: ["avg"] }] },
      w.team.member,
    );
    expect(stats.status).toBe(200);
  });
});
