import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { itemResponseSchema } from "@/lib/queues/item-schemas";
import { call, createQueue, queueWorld, recordCall, type QueueWorld } from "./queues-fixtures";

// POST /annotation_queues/{queue_id}/items/{item_id}/progress (spec §4.6): the per-annotator
// transition table, repeats, other annotators, the response item, and 404/422.

type State = "in_progress" | "completed" | "skipped";
const progress = (queueId: string, itemId: string) => `/annotation_queues/${queueId}/items/${itemId}/progress`;

let w: QueueWorld;
beforeAll(async () => {
  w = await queueWorld(0);
});

/** A queue with one item, where the annotator's state is `current` (set through the route itself). */
async function itemIn(current: State | null) {
  const { queue, items } = await createQueue(w, {}, [await recordCall(w.projectId)]);
  const path = progress(queue.id, items[0].id);
  if (current) {
    const set = await call(w.team.annotator, "POST", path, { project_id: w.project, annotation_state: current });
    expect(set.status).toBe(200);
  }
  return { queue, item: items[0], path };
}

const rowOf = (itemId: string, annotatorId: string) =>
  getDb().annotationProgress.findUnique({ where: { itemId_annotatorId: { itemId, annotatorId } } });

describe("the transition table, per annotator", () => {
  const table: [State | null, State, 200 | 400][] = [
    [null, "in_progress", 200], [null, "completed", 200], [null, "skipped", 200],
    ["in_progress", "in_progress", 200], ["in_progress", "completed", 200], ["in_progress", "skipped", 200],
    ["completed", "in_progress", 400], ["completed", "completed", 200], ["completed", "skipped", 400],
    ["skipped", "in_progress", 400], ["skipped", "completed", 400], ["skipped", "skipped", 200],
  ];

  it.each(table)("%s → %s: %i", async (current, requested, status) => {
    const { item, path } = await itemIn(current);
    const annotator = w.team.annotator.principal.user.id;
    const before = await rowOf(item.id, annotator);
    const response = await call(w.team.annotator, "POST", path, { project_id: w.project, annotation_state: requested });
    expect(response.status).toBe(status);
    const after = await rowOf(item.id, annotator);
    if (status === 400) {
      expect(response.body).toEqual({ detail: `Invalid state transition from '${current}' to '${requested}': '${current}' is final for an annotator.` });
      expect(after).toEqual(before);
      return;
    }
    expect(itemResponseSchema.parse(response.body)).toEqual(response.body);
    expect(response.body.item).toMatchObject({ id: item.id, annotation_state: requested, annotator_user_id: annotator, my_state: requested, position_in_queue: null });
    expect(after?.state).toBe(requested);
    if (current === requested) expect(after).toEqual(before); // a repeat writes nothing, not even updatedAt
  });
});

describe("the response item", () => {
  it("is unstarted with no annotator before anyone starts, and carries the spec's fields", async () => {
    const { queue, item } = await itemIn(null);
    const { body } = await call(w.team.annotator, "GET", `/annotation_queues/${queue.id}/items/${item.id}`);
    expect(body.item).toEqual({
      id: item.id, project_id: w.project, queue_id: queue.id, call_id: item.call_id,
      call_started_at: expect.any(String), call_ended_at: expect.any(String), call_op_name: "chat.completions", call_trace_id: expect.any(String),
      display_fields: [], created_at: expect.any(String), created_by: w.team.member.principal.user.id, updated_at: expect.any(String),
      added_by: w.team.member.principal.user.id, deleted_at: null, position_in_queue: 1,
      annotation_state: "unstarted", annotator_user_id: null, status: "unstarted", completed_annotations: 0, my_state: null, claimed_by: null, claim_expires_at: null,
      review: { state: "pending", note: null, reviewed_by: null, reviewed_at: null },
    });
  });

  it("shows the newest state across annotators; each annotator keeps their own table", async () => {
    const { item, path } = await itemIn("completed");
    const annotator = w.team.annotator.principal.user.id;
    const member = w.team.member.principal.user.id;
    // Another annotator starts after the first completed: their own row, none → in_progress.
    const started = await call(w.team.member, "POST", path, { project_id: w.project, annotation_state: "in_progress" });
    expect(started.body.item).toMatchObject({ annotation_state: "in_progress", annotator_user_id: member, my_state: "in_progress", completed_annotations: 1, status: "completed" });
    // The first annotator still sees the newest row (the other's), and their own completed state.
    const seen = await call(w.team.annotator, "POST", path, { project_id: w.project, annotation_state: "completed" });
    expect(seen.body.item).toMatchObject({ annotation_state: "in_progress", annotator_user_id: member, my_state: "completed" });
    // The other's in_progress → skipped is theirs to make; the first annotator's completed is untouched.
    const skipped = await call(w.team.member, "POST", path, { project_id: w.project, annotation_state: "skipped" });
    expect(skipped.body.item).toMatchObject({ annotation_state: "skipped", annotator_user_id: member, my_state: "skipped" });
    expect((await rowOf(item.id, annotator))?.state).toBe("completed");
  });

  it("counts completions toward the queue's number: completed only when it is reached", async () => {
    const settings = { annotations_per_item: 2, annotators: [w.team.annotator.username, w.team.member.username] };
    const { queue, items } = await createQueue(w, settings, [await recordCall(w.projectId)]);
    const path = progress(queue.id, items[0].id);
    const first = await call(w.team.annotator, "POST", path, { project_id: w.project, annotation_state: "completed" });
    expect(first.body.item).toMatchObject({ status: "in_progress", completed_annotations: 1 });
    const second = await call(w.team.member, "POST", path, { project_id: w.project, annotation_state: "completed" });
    expect(second.body.item).toMatchObject({ status: "completed", completed_annotations: 2 });
  });
});

describe("errors", () => {
  it("404 for an unknown queue or item, an item of another queue, another project_id, a removed item or a deleted queue", async () => {
    const { queue, item, path } = await itemIn(null);
    const other = await itemIn(null);
    const body = { project_id: w.project, annotation_state: "completed" };
    const cases: [string, unknown][] = [
      [progress(randomUUID(), item.id), body],
      [progress(queue.id, randomUUID()), body],
      [progress(queue.id, other.item.id), body],
      [path, { ...body, project_id: `${w.team.name}/elsewhere` }],
      [path, { ...body, project_id: "some-team/judging" }],
    ];
    for (const [target, sent] of cases) {
      const response = await call(w.team.annotator, "POST", target, sent);
      expect(response.status, target).toBe(404);
      expect(response.body.detail).toMatch(/not found/);
    }
    expect((await call(w.team.member, "DELETE", `/annotation_queues/${other.queue.id}/items/${other.item.id}`)).status).toBe(200);
    expect((await call(w.team.annotator, "POST", other.path, body)).status).toBe(404);
    expect((await call(w.team.member, "DELETE", `/annotation_queues/${queue.id}`)).status).toBe(200);
    expect((await call(w.team.annotator, "POST", path, body)).status).toBe(404);
  });

  it("404 for a queue the caller cannot reach: another team's, or one not assigned to an annotator", async () => {
    const { queue, item, path } = await itemIn(null);
    const outsider = await queueWorld(0);
    const body = { project_id: w.project, annotation_state: "completed" };
    expect((await call(outsider.team.admin, "POST", path, body)).status).toBe(404);
    await call(w.team.member, "PATCH", `/annotation_queues/${queue.id}`, { annotators: [] });
    const unassigned = await call(w.team.annotator, "POST", path, body);
    expect(unassigned).toEqual({ status: 404, body: { detail: `Annotation queue '${queue.id}' not found or deleted.` } });
    // Members reach every queue of their team, assigned or not.
    expect((await call(w.team.member, "POST", path, body)).status).toBe(200);
    expect(item.id).toBeTruthy();
  });

  it("422 for a state outside the enum (unstarted included), a missing field, a malformed id", async () => {
    const { path } = await itemIn(null);
    for (const state of ["done", "unstarted", "COMPLETED", 2]) {
      const response = await call(w.team.annotator, "POST", path, { project_id: w.project, annotation_state: state });
      expect(response.status).toBe(422);
      expect(response.body.detail[0].loc).toEqual(["body", "annotation_state"]);
    }
    const missing = await call(w.team.annotator, "POST", path, { annotation_state: "completed" });
    expect(missing.body.detail).toEqual([{ loc: ["body", "project_id"], msg: "Field required", type: "missing" }]);
    const malformed = await call(w.team.annotator, "POST", progress("not-a-uuid", randomUUID()), { project_id: w.project, annotation_state: "completed" });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0].loc).toEqual(["path", "queue_id"]);
  });
});
