import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { itemPage } from "@/lib/queues/item-schemas";
import { queuePage, queueSchema, queueStatsSchema } from "@/lib/queues/queue-schemas";
import { api, json } from "./http";
import { call, createQueue, queueWorld, recordCall, type QueueWorld } from "./queues-fixtures";

// Queues and their items: settings, adding and removing calls, listing, reading an item with its
// call, stats, who reaches what (roles, assignment, other teams), and feedback's queue_id.

let w: QueueWorld;
beforeAll(async () => {
  w = await queueWorld(3);
});

describe("queues", () => {
  it("are created with their settings, read, changed and deleted", async () => {
    const created = await call(w.team.member, "POST", "/annotation_queues", {
      project: w.project, name: "Helpfulness", description: "Week 12", instructions: "Judge the answer, not the question.",
      specs: [{ name: "score" }, { name: "fix", required: false }], display_fields: ["request.metadata.task"], annotations_per_item: 2,
      annotators: [w.team.annotator.username, w.team.member.username],
    });
    expect(created.status).toBe(201);
    expect(queueSchema.parse(created.body)).toEqual(created.body);
    const spec = (await call(w.team.member, "GET", `/annotation_queues/${created.body.id}`)).body.specs[0];
    expect(created.body).toEqual({
      object: "annotation_queue", id: expect.any(String), project: w.project, name: "Helpfulness", description: "Week 12",
      instructions: "Judge the answer, not the question.",
      specs: [
        { name: "score", ref: spec.ref, version: 1, description: "", required: true, type: "numeric", min: 1, max: 5, integer: true },
        { name: "fix", ref: expect.stringMatching(`^svc:///${w.project}/object/fix:`), version: 1, description: "", required: false, type: "corrected_reply", max_length: 32768 },
      ],
      display_fields: ["request.metadata.task"], annotations_per_item: 2,
      annotators: [w.team.annotator, w.team.member].map((u) => ({ user_id: u.principal.user.id, username: u.username })).sort((a, b) => a.username.localeCompare(b.username)),
      created_by: w.team.member.principal.user.id, created_at: expect.any(String), updated_at: expect.any(String),
      counts: { total: 0, completed: 0, in_progress: 0, skipped: 0, unstarted: 0, rejected: 0, remaining: 0, accepted: 0, awaiting_review: 0 },
    });
    expect(spec.ref.startsWith(`svc:///${w.project}/object/score:`)).toBe(true);

    const changed = await call(w.team.admin, "PATCH", `/annotation_queues/${created.body.id}`, { instructions: "New.", specs: [{ name: "ok" }], annotators: [] });
    expect(changed.body).toMatchObject({ name: "Helpfulness", instructions: "New.", annotations_per_item: 2, annotators: [], specs: [{ name: "ok", type: "boolean", required: true }] });

    expect(await call(w.team.member, "DELETE", `/annotation_queues/${created.body.id}`)).toEqual({ status: 200, body: { id: created.body.id, object: "annotation_queue", deleted: true } });
    expect((await call(w.team.member, "GET", `/annotation_queues/${created.body.id}`)).status).toBe(404);
    expect((await call(w.team.member, "DELETE", `/annotation_queues/${created.body.id}`)).status).toBe(404);
    expect(await getDb().annotationQueue.count({ where: { id: created.body.id } })).toBe(1); // kept, marked deleted
  });

  it("refuse specs and annotators that are not the project's or the team's (422 at the field), and a project that does not exist (404)", async () => {
    const outsider = await queueWorld(0);
    const base = { project: w.project, name: "q", specs: [{ name: "score" }] };
    const cases: [unknown, string[]][] = [
      [{ ...base, specs: [{ name: "score" }, { name: "nope" }] }, ["body", "specs", "1", "name"]],
      [{ ...base, specs: [{ name: "score" }, { name: "score" }] }, ["body", "specs"]],
      [{ ...base, specs: [] }, ["body", "specs"]],
      [{ ...base, annotators: [w.team.annotator.username, outsider.team.annotator.username] }, ["body", "annotators", "1"]],
      [{ ...base, annotations_per_item: 0 }, ["body", "annotations_per_item"]],
      [{ ...base, display_fields: ["request..x"] }, ["body", "display_fields", "0"]],
    ];
    for (const [body, loc] of cases) {
      const response = await call(w.team.member, "POST", "/annotation_queues", body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.detail[0].loc).toEqual(loc);
    }
    expect((await call(w.team.member, "POST", "/annotation_queues", { ...base, project: `${w.team.name}/missing` })).status).toBe(404);
    expect(await getDb().annotationQueue.count({ where: { name: "q", projectId: w.projectId } })).toBe(0);
  });

  it("pin the spec version current when their specs are set: a later spec change does not change the queue's", async () => {
    const { queue, items } = await createQueue(w, {}, [await recordCall(w.projectId)]);
    const specs = `/v1/teams/${w.team.name}/projects/judging/annotation-specs/score`;
    const redefined = await json(api("PUT", specs, { body: { type: "numeric", min: 1, max: 10 }, bearer: w.team.admin.key }));
    expect(redefined.body.version).toBe(2);
    const pinned = (await call(w.team.member, "GET", `/annotation_queues/${queue.id}`)).body.specs[0];
    expect(pinned).toMatchObject({ version: 1, max: 5, ref: queue.specs[0].ref });
    // Annotations in the queue are given against the pinned version: 7 is refused on its 1–5 scale.
    expect((await call(w.team.annotator, "POST", `/annotation_queues/${queue.id}/items/${items[0].id}/submit`, { values: { score: 7 } })).status).toBe(422);
    const resubmitted = await call(w.team.member, "PATCH", `/annotation_queues/${queue.id}`, { specs: [{ name: "score" }] });
    expect(resubmitted.body.specs[0]).toMatchObject({ version: 2, max: 10, ref: redefined.body.ref });
    await json(api("PUT", specs, { body: { type: "numeric", min: 1, max: 5, integer: true }, bearer: w.team.admin.key }));
  });

  it("take no annotation against a pinned spec that was deleted (404), and nothing is written", async () => {
    const world = await queueWorld(0);
    const { queue, items } = await createQueue(world, {}, [await recordCall(world.projectId)]);
    await json(api("DELETE", `/v1/teams/${world.team.name}/projects/judging/annotation-specs/score`, { bearer: world.team.admin.key }));
    const refused = await call(world.team.annotator, "POST", `/annotation_queues/${queue.id}/items/${items[0].id}/submit`, { values: { score: 3 } });
    expect(refused).toEqual({ status: 404, body: { detail: `Annotation spec ${queue.specs[0].ref} not found (or deleted) in project '${world.project}'.` } });
    expect(await getDb().feedback.count({ where: { queueId: queue.id } })).toBe(0);
  });

  it("are listed for whoever reaches them: members all of the team's, annotators the assigned ones", async () => {
    const world = await queueWorld(0);
    const assigned = await createQueue(world, { name: "assigned" }, []);
    const unassigned = await createQueue(world, { name: "unassigned", annotators: [] }, []);
    const names = async (as: typeof world.team.member, query = "") => {
      const { status, body } = await call(as, "GET", `/annotation_queues?limit=100${query}`);
      expect(status).toBe(200);
      expect(queuePage.parse(body)).toEqual(body);
      return body.data.map((q: { id: string }) => q.id);
    };
    expect(await names(world.team.member)).toEqual([assigned.queue.id, unassigned.queue.id]);
    expect(await names(world.team.annotator)).toEqual([assigned.queue.id]);
    expect(await names(world.team.annotator, `&project=${world.project}`)).toEqual([assigned.queue.id]);
    expect(await names(w.team.member)).not.toContain(assigned.queue.id); // another team
    const page = await call(world.team.member, "GET", `/annotation_queues?limit=1&project=${world.project}`);
    expect(page.body).toMatchObject({ has_more: true, first_id: assigned.queue.id });
    const after = await call(world.team.member, "GET", `/annotation_queues?limit=1&project=${world.project}&after=${assigned.queue.id}`);
    expect(after.body).toMatchObject({ has_more: false, data: [{ id: unassigned.queue.id }] });
    expect((await call(world.team.member, "GET", `/annotation_queues?after=${randomUUID()}`)).body.detail[0].loc).toEqual(["query", "after"]);
  });
});

describe("items", () => {
  it("are added by id in order, duplicates skipped and counted, and come back after removal", async () => {
    const { queue } = await createQueue(w, {}, []);
    const path = `/annotation_queues/${queue.id}/items`;
    const [a, b, c] = w.callIds;
    expect((await call(w.team.member, "POST", path, { call_ids: [b, a, b] })).body).toEqual({ added: 2, duplicates: 1 });
    expect((await call(w.team.member, "POST", path, { call_ids: [a, c] })).body).toEqual({ added: 1, duplicates: 1 });
    const listed = (await call(w.team.member, "GET", path)).body.data;
    expect(listed.map((i: { call_id: string; position_in_queue: number }) => [i.call_id, i.position_in_queue])).toEqual([[b, 1], [a, 2], [c, 3]]);
    expect((await call(w.team.member, "DELETE", `${path}/${listed[0].id}`)).status).toBe(200);
    expect((await call(w.team.member, "DELETE", `${path}/${listed[0].id}`)).status).toBe(404);
    expect((await call(w.team.member, "GET", path)).body.data.map((i: { call_id: string }) => i.call_id)).toEqual([a, c]);
    // Added again: the same item, at the end.
    expect((await call(w.team.member, "POST", path, { call_ids: [b] })).body).toEqual({ added: 1, duplicates: 0 });
    expect((await call(w.team.member, "GET", path)).body.data.map((i: { id: string; call_id: string }) => [i.call_id, i.id === listed[0].id])).toEqual([[a, false], [c, false], [b, true]]);
  });

  it("are added by a call-log filter: the project's matching calls, oldest first", async () => {
    const world = await queueWorld(0);
    const early = await recordCall(world.projectId, "x", { model: "team/p/m:step1", startedAt: new Date("2026-01-01T00:00:00Z") });
    const late = await recordCall(world.projectId, "y", { model: "team/p/m:step2", startedAt: new Date("2026-01-02T00:00:00Z") });
    await recordCall(world.projectId, "z", { model: "other", startedAt: new Date("2026-01-03T00:00:00Z") });
    await recordCall(w.projectId, "another project's", { model: "team/p/m:step1" });
    const { queue } = await createQueue(world, {}, []);
    const path = `/annotation_queues/${queue.id}/items`;
    expect((await call(world.team.member, "POST", path, { filter: { model: "team/p/m", status: "success" }, limit: 1 })).body).toEqual({ added: 1, duplicates: 0 });
    expect((await call(world.team.member, "POST", path, { filter: { model: "team/p/m", has_feedback: false } })).body).toEqual({ added: 1, duplicates: 1 });
    const listed = (await call(world.team.member, "GET", path)).body.data.map((i: { call_id: string }) => i.call_id);
    expect(listed).toEqual([early, late]);
    const bad = await call(world.team.member, "POST", path, { filter: { status: "weird", end: "2026-01-01T00:00:00Z", start: "2026-01-02T00:00:00Z" } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc)).toContainEqual(["body", "filter", "status"]);
    expect((await call(world.team.member, "POST", path, {})).body.detail[0].loc).toEqual(["body", "call_ids"]);
    expect((await call(world.team.member, "POST", path, { call_ids: [early], filter: {} })).status).toBe(422);
  });

  it("refuse calls of another project (422 naming the id), adding nothing", async () => {
    const { queue } = await createQueue(w, {}, []);
    const foreign = await recordCall((await queueWorld(0)).projectId);
    const response = await call(w.team.member, "POST", `/annotation_queues/${queue.id}/items`, { call_ids: [w.callIds[0], foreign] });
    expect(response).toEqual({ status: 422, body: { detail: [{ loc: ["body", "call_ids", "1"], msg: `no call '${foreign}' in project '${w.project}'`, type: "value_error" }] } });
    expect(await getDb().annotationQueueItem.count({ where: { queueId: queue.id } })).toBe(0);
  });

  it("are listed with positions over the whole queue, filtered by status and by one's own state, sorted, paged", async () => {
    const { queue, items } = await createQueue(w);
    const path = `/annotation_queues/${queue.id}/items`;
    await call(w.team.annotator, "POST", `${path}/${items[1].id}/submit`, { values: { score: 3 } });
    await call(w.team.member, "POST", `${path}/${items[2].id}/skip`, {});
    const list = async (query: string, as = w.team.annotator) => {
      const { status, body } = await call(as, "GET", `${path}?${query}`);
      expect(status, query).toBe(200);
      expect(itemPage.parse(body)).toEqual(body);
      return body.data.map((i: { id: string; position_in_queue: number; status: string }) => [items.findIndex((x) => x.id === i.id), i.position_in_queue, i.status]);
    };
    expect(await list("")).toEqual([[0, 1, "unstarted"], [1, 2, "completed"], [2, 3, "unstarted"]]);
    expect(await list("status=completed")).toEqual([[1, 2, "completed"]]);
    expect(await list("status=unstarted,completed&order=desc")).toEqual([[2, 1, "unstarted"], [1, 2, "completed"], [0, 3, "unstarted"]]);
    expect(await list("my_state=none")).toEqual([[0, 1, "unstarted"], [2, 3, "unstarted"]]);
    expect(await list("my_state=skipped", w.team.member)).toEqual([[2, 3, "unstarted"]]);
    expect(await list("sort=call_started_at&status=unstarted&status=completed")).toEqual([[0, 1, "unstarted"], [1, 2, "completed"], [2, 3, "unstarted"]]);
    const first = await call(w.team.annotator, "GET", `${path}?limit=1&my_state=none`);
    expect(first.body).toMatchObject({ has_more: true, first_id: items[0].id });
    expect(await list(`limit=1&my_state=none&after=${items[0].id}`)).toEqual([[2, 3, "unstarted"]]);
    for (const query of [`after=${randomUUID()}`, "status=done", "my_state=unstarted", "sort=name"]) {
      expect((await call(w.team.annotator, "GET", `${path}?${query}`)).status, query).toBe(422);
    }
  });

  it("are read with their call, the display fields' values and the caller's own annotations", async () => {
    const { queue, items } = await createQueue(w, { display_fields: ["request.metadata.task", "messages.0.content", "output.content", "request.nowhere"] });
    const { status, body } = await call(w.team.annotator, "GET", `/annotation_queues/${queue.id}/items/${items[0].id}`);
    expect(status).toBe(200);
    expect(body.call).toMatchObject({ id: items[0].call_id, project: w.project, messages: [{ role: "user", content: "What is 2+2?" }], output: { role: "assistant", content: "0" } });
    expect(body.display).toEqual([
      { path: "request.metadata.task", value: "sum" },
      { path: "messages.0.content", value: "What is 2+2?" },
      { path: "output.content", value: "0" },
      { path: "request.nowhere", value: null },
    ]);
    expect(body.mine).toEqual({ values: {}, note: null });
    expect(body.item).toMatchObject({ position_in_queue: 1, display_fields: ["request.metadata.task", "messages.0.content", "output.content", "request.nowhere"] });
  });
});

describe("stats", () => {
  it("count items by status, each person's work, and exact agreement where items have several annotations", async () => {
    const { queue, items } = await createQueue(w, { annotations_per_item: 2, specs: [{ name: "score" }, { name: "ok" }, { name: "fix", required: false }], annotators: [w.team.annotator.username, w.team.member.username] });
    const submit = (as: typeof w.team.member, i: number, values: Record<string, unknown>) => call(as, "POST", `/annotation_queues/${queue.id}/items/${items[i].id}/submit`, { values });
    await submit(w.team.annotator, 0, { score: 4, ok: true, fix: "Four" });
    await submit(w.team.member, 0, { score: 4.0, ok: false, fix: "4" });
    await submit(w.team.annotator, 1, { score: 2, ok: true });
    await submit(w.team.member, 1, { score: 3, ok: true });
    await call(w.team.annotator, "POST", `/annotation_queues/${queue.id}/next`); // claims item 2
    const { status, body } = await call(w.team.member, "GET", `/annotation_queues/${queue.id}/stats`);
    expect(status).toBe(200);
    expect(queueStatsSchema.parse(body)).toEqual(body);
    expect(body).toEqual({
      queue_id: queue.id,
      annotations_per_item: 2,
      counts: { total: 3, completed: 2, in_progress: 1, skipped: 0, unstarted: 0, rejected: 0, remaining: 1, accepted: 0, awaiting_review: 2 },
      annotators: [
        { user_id: w.team.annotator.principal.user.id, username: w.team.annotator.username, assigned: true, completed: 2, skipped: 0, in_progress: 1 },
        { user_id: w.team.member.principal.user.id, username: w.team.member.username, assigned: true, completed: 2, skipped: 0, in_progress: 0 },
      ].sort((a, b) => a.username.localeCompare(b.username)),
      agreement: [
        // α, by hand: score (interval) over [4, 4] and [2, 3] is 1 − 3·2/22 = 8/11; ok (nominal) over [true, false] and [true, true] is 1 − 3·2/6 = 0.
        { spec: "score", type: "numeric", items: 2, agreeing: 1, rate: 0.5, alpha: expect.closeTo(8 / 11, 10), alpha_metric: "interval" },
        { spec: "ok", type: "boolean", items: 2, agreeing: 1, rate: 0.5, alpha: 0, alpha_metric: "nominal" },
        { spec: "fix", type: "corrected_reply", items: 1, agreeing: null, rate: null, alpha: null, alpha_metric: null },
      ],
    });
  });
});

describe("who reaches what", () => {
  it("an annotator reaches only assigned queues, their items and their items' calls — nothing else", async () => {
    const { queue, items } = await createQueue(w);
    const hidden = await createQueue(w, { annotators: [] });
    const a = w.team.annotator;
    expect((await call(a, "GET", `/annotation_queues/${queue.id}/items/${items[0].id}`)).status).toBe(200);
    for (const path of ["", "/items", `/items/${hidden.items[0].id}`, "/stats"]) {
      expect((await call(a, "GET", `/annotation_queues/${hidden.queue.id}${path}`)).status, path).toBe(404);
    }
    expect((await call(a, "POST", `/annotation_queues/${hidden.queue.id}/next`)).status).toBe(404);
    expect((await call(a, "POST", `/annotation_queues/${hidden.queue.id}/items/${hidden.items[0].id}/submit`, { values: { score: 1 } })).status).toBe(404);
    // The call log stays closed to them; their item's call came through the queue.
    expect((await json(api("GET", `/v1/calls/${items[0].call_id}`, { bearer: a.key }))).status).toBe(403);
    // Annotating is theirs; changing the queue is not.
    expect((await call(a, "PATCH", `/annotation_queues/${queue.id}`, { name: "mine" })).status).toBe(403);
    expect((await call(a, "POST", `/annotation_queues/${queue.id}/items`, { call_ids: [w.callIds[0]] })).status).toBe(403);
    expect((await call(a, "DELETE", `/annotation_queues/${queue.id}/items/${items[0].id}`)).status).toBe(403);
    expect((await call(a, "POST", "/annotation_queues", { project: w.project, name: "q", specs: [{ name: "score" }] })).status).toBe(403);
    // An item of an assigned queue is not a way into another queue's items.
    expect((await call(a, "GET", `/annotation_queues/${queue.id}/items/${hidden.items[0].id}`)).status).toBe(404);
  });

  it("another team's queues and items are 404 for every role, and a team-scoped key reaches only its team", async () => {
    const { queue, items } = await createQueue(w);
    const other = await queueWorld(0);
    for (const as of [other.team.admin, other.team.member, other.team.annotator]) {
      expect((await call(as, "GET", `/annotation_queues/${queue.id}`)).status).toBe(404);
      expect((await call(as, "GET", `/annotation_queues/${queue.id}/items/${items[0].id}`)).status).toBe(404);
      expect((await call(as, "POST", `/annotation_queues/${queue.id}/items/${items[0].id}/progress`, { project_id: w.project, annotation_state: "completed" })).status).toBe(404);
      expect((await call(as, "GET", `/annotation_queues?project=${w.project}`)).status).toBe(404);
    }
    const scoped = await json(api("POST", "/v1/api-keys", { bearer: w.team.member.key, body: { name: "scoped", team: w.team.member.username } }));
    expect(scoped.status).toBe(201);
    const asScoped = { ...w.team.member, key: scoped.body.key };
    expect((await call(asScoped, "GET", `/annotation_queues/${queue.id}`)).status).toBe(404);
    expect((await call(asScoped, "GET", "/annotation_queues")).body.data).toEqual([]);
  });
});

describe("feedback's queue_id", () => {
  it("names a live queue of the project: accepted, then a 404 once the queue is deleted", async () => {
    const { queue } = await createQueue(w, {}, []);
    const note = { project_id: w.project, svc_ref: `svc:///${w.project}/call/${w.callIds[0]}`, feedback_type: "wandb.note.1", payload: { note: "n" }, queue_id: queue.id };
    expect((await call(w.team.annotator, "POST", "/feedback/create", note)).status).toBe(200);
    const elsewhere = await queueWorld(0);
    const foreignQueue = (await createQueue(elsewhere, {}, [])).queue.id;
    expect((await call(w.team.annotator, "POST", "/feedback/create", { ...note, queue_id: foreignQueue })).status).toBe(404);
    await call(w.team.member, "DELETE", `/annotation_queues/${queue.id}`);
    expect(await call(w.team.annotator, "POST", "/feedback/create", note)).toEqual({ status: 404, body: { detail: `Annotation queue '${queue.id}' not found or deleted.` } });
  });
});
