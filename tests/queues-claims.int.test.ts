import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { getDatabase, getDb } from "@/lib/db/client";
import { itemCallRef, noteBody, validateItemFeedback, writeItemFeedback } from "@/lib/queues/item-feedback";
import { itemWithCallSchema, nextItemSchema, submittedSchema } from "@/lib/queues/item-schemas";
import { lockItem, writeProgress } from "@/lib/queues/progress-write";
import { resolveQueue } from "@/lib/queues/queue-access";
import { createTestUser, type TestUser } from "./factories";
import { readFeedback } from "./feedback-fixtures";
import { call, createQueue, queueWorld, recordCall, type QueueWorld } from "./queues-fixtures";

// The annotator's workflow: next (claims, resume, expiry, release), submit (feedback rows and
// progress in one transaction, edits), skip, and many annotators racing for items.

let w: QueueWorld;
beforeAll(async () => {
  w = await queueWorld(0);
});
afterEach(() => {
  delete process.env.ANNEAL_ANNOTATION_CLAIM_MS;
  resetEnvCache();
});

async function queueOf(calls: number, settings: Record<string, unknown> = {}) {
  const ids: string[] = [];
  for (let i = 0; i < calls; i++) ids.push(await recordCall(w.projectId, String(i)));
  const { queue, items } = await createQueue(w, { annotators: [w.team.annotator.username, w.team.member.username], ...settings }, ids);
  const base = `/annotation_queues/${queue.id}`;
  return {
    queue,
    items,
    next: async (as: TestUser) => {
      const response = await call(as, "POST", `${base}/next`);
      expect(response.status).toBe(200);
      return nextItemSchema.parse(response.body).item;
    },
    submit: (as: TestUser, itemId: string, body: unknown) => call(as, "POST", `${base}/items/${itemId}/submit`, body),
    skip: (as: TestUser, itemId: string, body: unknown = {}) => call(as, "POST", `${base}/items/${itemId}/skip`, body),
    release: (as: TestUser, itemId: string) => call(as, "POST", `${base}/items/${itemId}/release`),
    read: (as: TestUser, itemId: string) => call(as, "GET", `${base}/items/${itemId}`),
  };
}

const myRows = (queueId: string, userId: string) =>
  getDb().feedback.findMany({ where: { queueId, wbUserId: userId }, orderBy: [{ feedbackType: "asc" }], select: { feedbackType: true, payload: true, svcRef: true, annotationRef: true } });

describe("next", () => {
  it("claims the first unfinished item for the caller, and gives it again until it is done (resume)", async () => {
    const q = await queueOf(3);
    const annotator = w.team.annotator.principal.user.id;
    const first = await q.next(w.team.annotator);
    expect(first).toMatchObject({ id: q.items[0].id, position_in_queue: 1, status: "in_progress", my_state: "in_progress", claimed_by: annotator, annotation_state: "in_progress" });
    const expires = Date.parse(first!.claim_expires_at!);
    expect(expires - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000);
    expect((await q.next(w.team.annotator))?.id).toBe(first!.id);
    // Someone else gets the next item, not the claimed one.
    expect((await q.next(w.team.member))?.id).toBe(q.items[1].id);
  });

  it("never offers what the caller finished or what has all its annotations, and says null when nothing is left", async () => {
    const q = await queueOf(3, { annotations_per_item: 2 });
    for (const item of q.items.slice(0, 2)) {
      expect((await q.next(w.team.annotator))?.id).toBe(item.id);
      expect((await q.submit(w.team.annotator, item.id, { values: { score: 4 } })).status).toBe(200);
    }
    expect((await q.next(w.team.annotator))?.id).toBe(q.items[2].id);
    expect((await q.skip(w.team.annotator, q.items[2].id)).status).toBe(200);
    expect(await q.next(w.team.annotator)).toBeNull();
    // The member is offered the items still needing a second annotation, in order.
    expect((await q.next(w.team.member))?.id).toBe(q.items[0].id);
    await q.submit(w.team.member, q.items[0].id, { values: { score: 5 } });
    expect((await q.next(w.team.member))?.id).toBe(q.items[1].id);
    await q.submit(w.team.member, q.items[1].id, { values: { score: 5 } });
    expect((await q.next(w.team.member))?.id).toBe(q.items[2].id);
    await q.submit(w.team.member, q.items[2].id, { values: { score: 5 } });
    expect(await q.next(w.team.member)).toBeNull();
    // The third has one annotation of two (the annotator skipped it): a team admin, not assigned but
    // reaching every queue of the team, is offered it; then nothing is left for anyone.
    expect((await q.next(w.team.admin))?.id).toBe(q.items[2].id);
    await q.submit(w.team.admin, q.items[2].id, { values: { score: 1 } });
    expect(await q.next(w.team.admin)).toBeNull();
  });

  it("an expired claim returns the item to the pool; a late submission is still stored", async () => {
    process.env.ANNEAL_ANNOTATION_CLAIM_MS = "300";
    resetEnvCache();
    const q = await queueOf(2);
    const item = await q.next(w.team.annotator);
    expect((await q.next(w.team.member))?.id).toBe(q.items[1].id); // the claimed item is not offered
    await new Promise((r) => setTimeout(r, 400));
    const unclaimed = await call(w.team.admin, "GET", `/annotation_queues/${q.queue.id}/items/${item!.id}`);
    expect(unclaimed.body.item).toMatchObject({ status: "unstarted", claimed_by: null, claim_expires_at: null });
    // The admin takes it over and completes it first.
    expect((await q.next(w.team.admin))?.id).toBe(item!.id);
    expect((await q.submit(w.team.admin, item!.id, { values: { score: 2 } })).body.item).toMatchObject({ status: "completed", completed_annotations: 1 });
    // The first annotator submits late: stored, nothing lost.
    const late = await q.submit(w.team.annotator, item!.id, { values: { score: 3 } });
    expect(late.status).toBe(200);
    expect(late.body.item).toMatchObject({ status: "completed", completed_annotations: 2, my_state: "completed" });
    expect(await myRows(q.queue.id, w.team.annotator.principal.user.id)).toMatchObject([{ feedbackType: "wandb.annotation.score", payload: { value: 3 } }]);
  });

  it("release gives the item back: the caller's unfinished progress goes, the next caller gets it", async () => {
    const q = await queueOf(2);
    const item = await q.next(w.team.annotator);
    const released = await q.release(w.team.annotator, item!.id);
    expect(released.status).toBe(200);
    expect(released.body.item).toMatchObject({ id: item!.id, status: "unstarted", my_state: null, claimed_by: null, annotation_state: "unstarted" });
    expect((await q.next(w.team.member))?.id).toBe(item!.id);
    // Releasing again (nothing held) changes nothing; a finished item has nothing to release.
    expect((await q.release(w.team.annotator, item!.id)).status).toBe(200);
    await q.submit(w.team.member, item!.id, { values: { score: 1 } });
    expect(await q.release(w.team.member, item!.id)).toEqual({ status: 400, body: { detail: "You completed this item: there is no claim to release." } });
  });
});

describe("submit", () => {
  it("writes a wandb.annotation row per value (the pinned spec, the queue, the call) and a note, and completes the caller's progress", async () => {
    const q = await queueOf(1);
    const item = q.items[0];
    const submitted = await q.submit(w.team.annotator, item.id, { values: { score: 4, fix: "Four." }, note: "close" });
    expect(submitted.status).toBe(200);
    expect(submittedSchema.parse(submitted.body)).toEqual(submitted.body);
    expect(submitted.body.item).toMatchObject({ status: "completed", my_state: "completed", completed_annotations: 1, annotation_state: "completed" });
    const ref = `svc:///${w.project}/call/${item.call_id}`;
    const specRef = (name: string) => q.queue.specs.find((s: { name: string }) => s.name === name).ref;
    expect(await myRows(q.queue.id, w.team.annotator.principal.user.id)).toEqual([
      { feedbackType: "wandb.annotation.fix", payload: { value: "Four." }, svcRef: ref, annotationRef: specRef("fix") },
      { feedbackType: "wandb.annotation.score", payload: { value: 4 }, svcRef: ref, annotationRef: specRef("score") },
      { feedbackType: "wandb.note.1", payload: { note: "close" }, svcRef: ref, annotationRef: null },
    ]);
    // As the feedback API returns them, with the queue's id.
    const row = await readFeedback(w.project, submitted.body.feedback[0].id, w.team.member);
    expect(row).toMatchObject({ queue_id: q.queue.id, weave_ref: ref, wb_user_id: w.team.annotator.principal.user.id });
    // The item read gives them back for editing.
    const read = await q.read(w.team.annotator, item.id);
    expect(itemWithCallSchema.parse(read.body)).toEqual(read.body);
    expect(read.body.mine).toEqual({ values: { score: 4, fix: "Four." }, note: "close" });
  });

  it("again after completing (Back): replaces the caller's rows, the state and count stay", async () => {
    const q = await queueOf(1);
    const item = q.items[0];
    await q.submit(w.team.annotator, item.id, { values: { score: 4, fix: "Four." }, note: "close" });
    const edited = await q.submit(w.team.annotator, item.id, { values: { score: 5 } });
    expect(edited.body.item).toMatchObject({ status: "completed", my_state: "completed", completed_annotations: 1 });
    expect(edited.body.feedback).toEqual([{ id: expect.any(String), feedback_type: "wandb.annotation.score", payload: { value: 5 } }]);
    expect(await myRows(q.queue.id, w.team.annotator.principal.user.id)).toMatchObject([{ feedbackType: "wandb.annotation.score", payload: { value: 5 } }]);
  });

  it("sent several times at once by one annotator, counts once and keeps one submission's rows", async () => {
    const q = await queueOf(1);
    const item = q.items[0];
    const answers = await Promise.all([1, 2, 3, 4, 5].map((score) => q.submit(w.team.annotator, item.id, { values: { score } })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const read = await q.read(w.team.annotator, item.id);
    expect(read.body.item).toMatchObject({ completed_annotations: 1, my_state: "completed" });
    expect(await myRows(q.queue.id, w.team.annotator.principal.user.id)).toHaveLength(1);
  });

  it("writes nothing when a value fails its spec, a required spec is missing, or a name is not the queue's", async () => {
    const q = await queueOf(1);
    const item = q.items[0];
    await q.next(w.team.annotator);
    const cases: [unknown, { loc: string[]; type: string }[]][] = [
      [{ values: { score: 7, fix: "ok" }, note: "n" }, [{ loc: ["body", "values", "score"], type: "value_error" }]],
      [{ values: { score: 2.5 } }, [{ loc: ["body", "values", "score"], type: "value_error" }]],
      [{ values: { fix: "only the optional one" } }, [{ loc: ["body", "values", "score"], type: "missing" }]],
      [{ values: { score: 4, ok: true } }, [{ loc: ["body", "values", "ok"], type: "value_error" }]],
      [{ values: { score: 4, fix: "" } }, [{ loc: ["body", "values", "fix"], type: "value_error" }]],
    ];
    for (const [body, detail] of cases) {
      const response = await q.submit(w.team.annotator, item.id, body);
      expect(response.status).toBe(422);
      expect(response.body.detail).toMatchObject(detail);
    }
    expect(await myRows(q.queue.id, w.team.annotator.principal.user.id)).toEqual([]);
    const read = await q.read(w.team.annotator, item.id);
    expect(read.body.item).toMatchObject({ my_state: "in_progress", completed_annotations: 0 });
  });

  it("is one transaction: a failure after the rows are written leaves neither rows nor progress", async () => {
    const q = await queueOf(1);
    const item = q.items[0];
    const annotator = w.team.annotator.principal;
    const access = await resolveQueue(annotator, q.queue.id, "annotate");
    const ref = itemCallRef(access, item.call_id);
    const rows = await validateItemFeedback(annotator, access, ref, [noteBody("kept?")]);
    const failing = getDatabase().sql.transaction(async (tx) => {
      const locked = await lockItem(tx, access, item.id, annotator.user.id);
      await writeItemFeedback(tx, access, ref, annotator.user.id, rows, { replace: true });
      await writeProgress(tx, locked, annotator.user.id, "completed");
      throw new Error("the connection dropped");
    });
    await expect(failing).rejects.toThrow("the connection dropped");
    expect(await myRows(q.queue.id, annotator.user.id)).toEqual([]);
    expect((await q.read(w.team.annotator, item.id)).body.item).toMatchObject({ my_state: null, completed_annotations: 0 });
  });

  it("a skipped item takes no annotation from the skipper (400, nothing written)", async () => {
    const q = await queueOf(1);
    await q.skip(w.team.annotator, q.items[0].id);
    const refused = await q.submit(w.team.annotator, q.items[0].id, { values: { score: 4 } });
    expect(refused).toEqual({ status: 400, body: { detail: "You skipped this item, which is final for an annotator: it takes no annotation from you." } });
    expect(await myRows(q.queue.id, w.team.annotator.principal.user.id)).toEqual([]);
  });
});

describe("skip", () => {
  it("is final for the caller, stores the reason as a note, sends the item to the others; repeats change nothing", async () => {
    const q = await queueOf(1);
    const item = q.items[0];
    const skipped = await q.skip(w.team.annotator, item.id, { reason: "not English" });
    expect(skipped.body.item).toMatchObject({ my_state: "skipped", status: "unstarted" }); // the member has not skipped it yet
    expect((await q.skip(w.team.annotator, item.id, { reason: "again" })).status).toBe(200);
    expect(await myRows(q.queue.id, w.team.annotator.principal.user.id)).toMatchObject([{ feedbackType: "wandb.note.1", payload: { note: "not English" } }]);
    expect(await q.next(w.team.annotator)).toBeNull();
    expect((await q.next(w.team.member))?.id).toBe(item.id);
    // Every assigned annotator skipped it: the item shows as skipped.
    const both = await q.skip(w.team.member, item.id);
    expect(both.body.item).toMatchObject({ status: "skipped" });
    const stats = await call(w.team.member, "GET", `/annotation_queues/${q.queue.id}/stats`);
    expect(stats.body.counts).toEqual({ total: 1, completed: 0, in_progress: 0, skipped: 1, unstarted: 0, rejected: 0, remaining: 0, accepted: 0, awaiting_review: 0 });
  });

  it("a completed item cannot be skipped (400)", async () => {
    const q = await queueOf(1);
    await q.submit(w.team.annotator, q.items[0].id, { values: { score: 4 } });
    const refused = await q.skip(w.team.annotator, q.items[0].id);
    expect(refused).toEqual({ status: 400, body: { detail: "Invalid state transition from 'completed' to 'skipped': 'completed' is final for an annotator." } });
  });
});

describe("many annotators at once", () => {
  async function annotators(n: number): Promise<TestUser[]> {
    const users: TestUser[] = [];
    for (let i = 0; i < n; i++) {
      const user = await createTestUser({ prefix: "racer" });
      await getDb().membership.create({ data: { teamId: w.team.id, userId: user.principal.user.id, role: "annotator" } });
      users.push(user);
    }
    return users;
  }

  it("never give two annotators the same item, at once or while working the queue through", async () => {
    const people = await annotators(12);
    const q = await queueOf(40, { annotators: people.map((p) => p.username) });
    // A burst: everyone asks at the same moment.
    const burst = await Promise.all(people.map((p) => q.next(p)));
    const firstIds = burst.map((item) => item!.id);
    expect(new Set(firstIds).size).toBe(people.length);
    // Then everyone works until nothing is left: next → submit, in parallel.
    const claimedBy = new Map<string, string[]>();
    await Promise.all(
      people.map(async (person, i) => {
        let item = burst[i];
        while (item) {
          claimedBy.set(item.id, [...(claimedBy.get(item.id) ?? []), person.username]);
          expect((await q.submit(person, item.id, { values: { score: 3 } })).status).toBe(200);
          item = await q.next(person);
        }
      }),
    );
    expect([...claimedBy.values()].filter((who) => who.length > 1)).toEqual([]);
    expect(claimedBy.size).toBe(40);
    const stats = await call(w.team.member, "GET", `/annotation_queues/${q.queue.id}/stats`);
    expect(stats.body.counts).toMatchObject({ total: 40, completed: 40, remaining: 0 });
    expect(await getDb().feedback.count({ where: { queueId: q.queue.id } })).toBe(40);
  });
});
