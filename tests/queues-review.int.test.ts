import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { itemPage } from "@/lib/queues/item-schemas";
import { fileSource } from "@/lib/training/from-judgement/file-source";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { call, createQueue, queueWorld, recordCall, type QueueWorld } from "./queues-fixtures";

// The reviewer's side of a queue: the items list with each call's prompt and answer and everyone's
// work (filtered and searched on the server), reviews (accept, reject with a note that goes back to
// the annotator who wrote the annotations), the counts that say what is done, the export, and
// training from accepted items only.

let w: QueueWorld;
let second: TestUser; // a second annotator of the team
useTempDataDir("queue-review");

beforeAll(async () => {
  w = await queueWorld(0);
  second = await createTestUser({ prefix: "annotator" });
  await getDb().membership.create({ data: { teamId: w.team.id, userId: second.principal.user.id, role: "annotator" } });
});

const submit = (user: TestUser, queueId: string, itemId: string, values: Record<string, unknown>, note?: string) =>
  call(user, "POST", `/annotation_queues/${queueId}/items/${itemId}/submit`, { values, note });
const review = (user: TestUser, queueId: string, itemId: string, body: unknown) => call(user, "POST", `/annotation_queues/${queueId}/items/${itemId}/review`, body);
const next = (user: TestUser, queueId: string) => call(user, "POST", `/annotation_queues/${queueId}/next`);

/** A queue of three calls (answers "4", "five", "6" to "What is 2+2?"), assigned to both annotators. */
async function reviewQueue() {
  const calls = [await recordCall(w.projectId, "4"), await recordCall(w.projectId, "five"), await recordCall(w.projectId, "6")];
  return createQueue(w, { annotators: [w.team.annotator.username, second.username] }, calls);
}

describe("the items list for reviewers", () => {
  it("shows each item's prompt and answer, everyone's values with their note and time spent, and filters by annotator, value and text on the server", async () => {
    const { queue, items } = await reviewQueue();
    const claimed = await next(w.team.annotator, queue.id); // a claim, then a submission: time spent is measured
    expect(claimed.body.item.id).toBe(items[0].id);
    await new Promise((r) => setTimeout(r, 30));
    expect((await submit(w.team.annotator, queue.id, items[0].id, { score: 5, fix: "4" }, "fine")).status).toBe(200);
    expect((await submit(second, queue.id, items[1].id, { score: 1, fix: "Four." })).status).toBe(200);
    expect((await submit(w.team.annotator, queue.id, items[2].id, { score: 2 })).status).toBe(200);

    const list = async (user: TestUser, query = "") => {
      const res = await call(user, "GET", `/annotation_queues/${queue.id}/items?${query.includes("limit=") ? "" : "limit=100"}${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(itemPage.parse(res.body)).toEqual(res.body);
      return res.body;
    };
    const page = await list(w.team.member);
    expect(page.data[0]).toMatchObject({ prompt_preview: "What is 2+2?", answer_preview: "4", answer: "4" });
    expect(page.data[0].annotations).toEqual([
      {
        annotator_user_id: w.team.annotator.principal.user.id, annotator: w.team.annotator.username, state: "completed",
        values: { score: 5 }, note: "fine", submitted_at: expect.any(String), time_spent_ms: expect.any(Number),
      },
    ]);
    expect(page.data[0].annotations[0].time_spent_ms).toBeGreaterThanOrEqual(30);
    expect(page.data[1].annotations).toEqual([expect.objectContaining({ annotator: second.username, values: { score: 1, fix: "Four." }, note: null, time_spent_ms: null })]);

    const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);
    expect(ids(await list(w.team.member, `&annotator=${second.username}`))).toEqual([items[1].id]);
    expect(ids(await list(w.team.member, "&spec=score&value=2"))).toEqual([items[2].id]);
    expect(ids(await list(w.team.member, `&spec=score&value=5&annotator=${second.username}`))).toEqual([]);
    expect(ids(await list(w.team.member, "&spec=fix"))).toEqual([items[1].id]); // "4" on item 0 is the answer as it was: not stored as a correction
    expect(ids(await list(w.team.member, "&search=FOUR."))).toEqual([items[1].id]); // in a correction
    expect(ids(await list(w.team.member, "&search=five"))).toEqual([items[1].id]); // in an answer
    expect(ids(await list(w.team.member, "&search=fine"))).toEqual([items[0].id]); // in a note
    // Paged under a filter: the cursor continues the filtered list.
    const first = await list(w.team.member, "&spec=score&limit=2");
    expect(first.has_more).toBe(true);
    expect(ids(await list(w.team.member, `&spec=score&limit=2&after=${first.last_id}`))).toEqual([items[2].id]);

    // An annotator sees their own work only, and cannot find items by another person's values.
    const theirs = await list(second);
    expect(theirs.data.map((item: { annotations: unknown[] }) => item.annotations.length)).toEqual([0, 1, 0]);
    expect(ids(await list(second, "&spec=score&value=5"))).toEqual([]);
    expect(ids(await list(second, `&annotator=${w.team.annotator.username}`))).toEqual([]);
    expect((await call(w.team.member, "GET", `/annotation_queues/${queue.id}/items?spec=score&value=${"x".repeat(2000)}`)).status).toBe(422);
  });
});

describe("review", () => {
  it("accepts or rejects an item's annotations with a note; a rejected item returns to the annotator who wrote it, with the note, and to nobody else", async () => {
    const { queue, items } = await reviewQueue();
    // Nothing to review before the item has its annotations; an annotator never reviews.
    expect(await review(w.team.member, queue.id, items[0].id, { review_state: "accepted" })).toMatchObject({ status: 400, body: { detail: expect.stringContaining("nothing to review") } });
    expect((await submit(w.team.annotator, queue.id, items[0].id, { score: 2 })).status).toBe(200);
    expect((await submit(second, queue.id, items[1].id, { score: 4 })).status).toBe(200);
    expect((await review(w.team.annotator, queue.id, items[0].id, { review_state: "accepted" })).status).toBe(403);
    expect((await review(w.team.member, queue.id, items[0].id, { review_state: "rejected" })).body.detail).toEqual([
      { loc: ["body", "note"], msg: "a rejection needs a note: the annotators read it", type: "value_error" },
    ]);
    expect((await review(w.team.member, queue.id, items[0].id, { review_state: "maybe" })).status).toBe(422);

    const rejected = await review(w.team.member, queue.id, items[0].id, { review_state: "rejected", note: "2+2 is 4: score the answer, not the style." });
    expect(rejected.status).toBe(200);
    expect(rejected.body.item).toMatchObject({
      status: "rejected",
      review: { state: "rejected", note: "2+2 is 4: score the answer, not the style.", reviewed_by: w.team.member.principal.user.id, reviewed_at: expect.any(String) },
    });
    expect((await review(w.team.admin, queue.id, items[1].id, { review_state: "accepted" })).body.item).toMatchObject({ status: "completed", review: { state: "accepted", note: null } });
    const stats = await call(w.team.member, "GET", `/annotation_queues/${queue.id}/stats`);
    expect(stats.body.counts).toEqual({ total: 3, completed: 1, in_progress: 0, skipped: 0, unstarted: 1, rejected: 1, remaining: 2, accepted: 1, awaiting_review: 0 });

    // The other annotator is not offered it: they get the untouched item.
    expect((await next(second, queue.id)).body.item.id).toBe(items[2].id);
    await call(second, "POST", `/annotation_queues/${queue.id}/items/${items[2].id}/release`);
    // Its writer gets it first, with the note, and their values to edit.
    const back = await next(w.team.annotator, queue.id);
    expect(back.body.item).toMatchObject({ id: items[0].id, my_state: "completed", claimed_by: w.team.annotator.principal.user.id, review: { state: "rejected", note: expect.stringContaining("2+2 is 4") } });
    const read = await call(w.team.annotator, "GET", `/annotation_queues/${queue.id}/items/${items[0].id}`);
    expect(read.body.mine.values).toEqual({ score: 2 });
    // Resubmitting sends it back to review, ends the claim, and counts once.
    const again = await submit(w.team.annotator, queue.id, items[0].id, { score: 5 });
    expect(again.body.item).toMatchObject({ status: "completed", completed_annotations: 1, claimed_by: null, review: { state: "pending", note: expect.stringContaining("2+2 is 4") } });
    expect((await next(w.team.annotator, queue.id)).body.item.id).toBe(items[2].id);
    const after = await call(w.team.member, "GET", `/annotation_queues/${queue.id}/stats`);
    expect(after.body.counts).toMatchObject({ completed: 2, rejected: 0, accepted: 1, awaiting_review: 1, remaining: 1 });
    // Filter by review.
    const pending = await call(w.team.member, "GET", `/annotation_queues/${queue.id}/items?review_state=pending&status=completed`);
    expect(pending.body.data.map((i: { id: string }) => i.id)).toEqual([items[0].id]);
  });

  it("a released rejected item keeps its writer's annotation and is offered to them again", async () => {
    const { queue, items } = await reviewQueue();
    await submit(second, queue.id, items[0].id, { score: 3 });
    await review(w.team.member, queue.id, items[0].id, { review_state: "rejected", note: "Look again." });
    expect((await next(second, queue.id)).body.item.id).toBe(items[0].id);
    const released = await call(second, "POST", `/annotation_queues/${queue.id}/items/${items[0].id}/release`);
    expect(released.body.item).toMatchObject({ my_state: "completed", claimed_by: null, status: "rejected" });
    expect((await next(second, queue.id)).body.item.id).toBe(items[0].id);
  });

  it("another team's item is a 404", async () => {
    const other = await queueWorld(1);
    const { queue, items } = await createQueue(other);
    expect((await review(w.team.member, queue.id, items[0].id, { review_state: "accepted" })).status).toBe(404);
  });
});

describe("export", () => {
  it("carries the prompt, the answer and the correction beside the values, in CSV and JSONL", async () => {
    const { queue, items } = await reviewQueue();
    await submit(w.team.annotator, queue.id, items[0].id, { score: 5, fix: "4" }, "right"); // the answer as it was: no correction
    await submit(second, queue.id, items[1].id, { score: 1, fix: "Four, \"exactly\"." });
    await review(w.team.member, queue.id, items[1].id, { review_state: "accepted" });
    const get = (format: string, user = w.team.member) => api("GET", `/annotation_queues/${queue.id}/export?format=${format}`, { basic: ["api", user.key] });

    const jsonl = await get("jsonl");
    expect(jsonl.headers.get("content-type")).toContain("application/jsonl");
    const records = (await jsonl.text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(records).toEqual([
      {
        queue_id: queue.id, item_id: items[0].id, call_id: items[0].call_id, annotator: w.team.annotator.username, annotator_user_id: w.team.annotator.principal.user.id,
        state: "completed", prompt: "What is 2+2?", answer: "4", correction: null, values: { score: 5 }, note: "right",
        review_state: "pending", review_note: null, submitted_at: expect.any(String), time_spent_ms: null,
      },
      expect.objectContaining({ item_id: items[1].id, annotator: second.username, answer: "five", correction: "Four, \"exactly\".", values: { score: 1, fix: "Four, \"exactly\"." }, review_state: "accepted" }),
    ]);

    const csv = await (await get("csv")).text();
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("queue_id,item_id,call_id,annotator,annotator_user_id,state,prompt,answer,correction,score,fix,note,review_state,review_note,submitted_at,time_spent_ms");
    expect(lines[2]).toContain(`,completed,What is 2+2?,five,"Four, ""exactly"".",1,"Four, ""exactly"".",,accepted,,`);
    // An annotator exports their own work only.
    const mine = (await (await get("jsonl", second)).text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(mine.map((r: { annotator: string }) => r.annotator)).toEqual([second.username]);
    expect((await get("xml")).status).toBe(422);
  });
});

describe("training from judgement", () => {
  it("can require accepted items only", async () => {
    const { queue, items } = await reviewQueue();
    for (const item of items) await submit(w.team.annotator, queue.id, item.id, { score: 5 });
    await review(w.team.member, queue.id, items[1].id, { review_state: "accepted" });
    await review(w.team.member, queue.id, items[2].id, { review_state: "rejected", note: "no" });
    const build = (body: Record<string, unknown>) =>
      json(api("POST", "/v1/preview/judgement/sft-dataset", { bearer: w.team.member.key, body: { queue_id: queue.id, rule: { spec: "score", op: ">=", value: 4 }, ...body } }));
    const all = await build({});
    expect(all.body).toMatchObject({ matched: 3, used: 3, source: { queue: { id: queue.id }, accepted_only: false } });
    // The lineage says it was built from accepted items only, and so does the file's (which a job trained on it copies).
    const accepted = await build({ accepted_only: true });
    expect(accepted.body).toMatchObject({ matched: 1, used: 1, source: { queue: { id: queue.id }, accepted_only: true } });
    expect(await fileSource(accepted.body.file.id)).toMatchObject({ accepted_only: true });
    const noQueue = await json(api("POST", "/v1/preview/judgement/sft-dataset", { bearer: w.team.member.key, body: { project: w.project, accepted_only: true, rule: { spec: "score", op: ">=", value: 4 } } }));
    expect(noQueue.body.detail[0].loc).toEqual(["body", "accepted_only"]);
  });
});
