import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { api, json } from "./http";
import { createTestUser, uniqueName, type TestUser } from "./factories";
import { call, createQueue, queueWorld } from "./queues-fixtures";

// The lists paged by a position column (jobs, RL runs and queue items by `seq`, a job's events by
// `seq`, checkpoints by `step`): both orders, every page's ids and has_more, filters, and the 422
// for a cursor outside the caller's list (unknown, not a uuid, another model's or team's row, or a
// row the filters leave out).

let user: TestUser;
let stranger: TestUser;

const get = (url: string, as = user) => json(api("GET", url, { bearer: as.key }));

const unknown = (after: string) => ({
  status: 422,
  body: { detail: [{ loc: ["query", "after"], msg: `Unknown cursor '${after}': pass the id of an item of this list.`, type: "value_error" }] },
});

/** Every page of `url` at `limit` items each: the ids per page, and each page's envelope. */
async function walk(url: string, limit: number, as = user) {
  const pages: { ids: string[]; first_id: string; last_id: string; has_more: boolean }[] = [];
  for (let after = ""; ;) {
    const { status, body } = await get(`${url}${url.includes("?") ? "&" : "?"}limit=${limit}${after && `&after=${after}`}`, as);
    expect(status, url).toBe(200);
    expect(body.object).toBe("list");
    const ids = body.data.map((d: { id: string }) => d.id);
    pages.push({ ids, first_id: body.first_id, last_id: body.last_id, has_more: body.has_more });
    if (!body.has_more) return pages;
    after = body.last_id;
  }
}

/** The pages `ids` (in list order) make at `limit` items each. */
function expectedPages(ids: string[], limit: number) {
  const pages = [];
  for (let i = 0; i === 0 || i < ids.length; i += limit) {
    const page = ids.slice(i, i + limit);
    pages.push({ ids: page, first_id: page[0] ?? "", last_id: page.at(-1) ?? "", has_more: i + limit < ids.length });
  }
  return pages;
}

async function seedModel(owner: TestUser) {
  const team = await getDb().team.findFirstOrThrow({ where: { personalFor: owner.principal.user.id } });
  const project = await getDb().project.upsert({ where: { teamId_name: { teamId: team.id, name: "paged" } }, create: { teamId: team.id, name: "paged" }, update: {} });
  return getDb().model.create({ data: { projectId: project.id, name: uniqueName("paged"), baseModel: "test/tiny" } });
}

const seedJob = (modelId: string, status: string) => getDb().trainingJob.create({ data: { modelId, kind: "sft", status, input: "{}" } });
const seedRun = (modelId: string, status: string) =>
  getDb().rlRun.create({
    data: { modelId, status, prompts: "[]", promptSource: { type: "inline", prompt_count: 2 }, checker: { type: "exact" }, groupSize: 2, iterations: 1, promptsPerIteration: 1, temperature: 1, maxTokens: 8 },
  });

beforeAll(async () => {
  user = await createTestUser();
  stranger = await createTestUser();
});

describe.each([
  { list: "/v1/preview/training-jobs", seed: seedJob },
  { list: "/v1/preview/rl-runs", seed: seedRun },
])("$list", ({ list, seed }) => {
  let own: { id: string; status: string; modelId: string }[];
  let otherModel: string;
  let otherTeam: string;

  beforeAll(async () => {
    const [a, b] = [await seedModel(user), await seedModel(user)];
    own = [];
    for (const status of ["succeeded", "cancelled", "succeeded", "failed", "succeeded"]) own.push(await seed(a.id, status));
    otherModel = (await seed(b.id, "succeeded")).id;
    otherTeam = (await seed((await seedModel(stranger)).id, "succeeded")).id;
  });

  it("pages newest first by default and oldest first on asc, over the caller's teams", async () => {
    const ids = [...own.map((r) => r.id), otherModel];
    expect(await walk(list, 2)).toEqual(expectedPages([...ids].reverse(), 2));
    expect(await walk(`${list}?order=asc`, 2)).toEqual(expectedPages(ids, 2));
    expect(await walk(`${list}?order=asc`, 100)).toEqual(expectedPages(ids, 100));
    expect(await walk(list, 2, stranger)).toEqual(expectedPages([otherTeam], 2));
  });

  it("filters by model and status, the cursor staying within the filtered list", async () => {
    const model = own[0].modelId;
    const succeeded = own.filter((r) => r.status === "succeeded").map((r) => r.id);
    expect(await walk(`${list}?model_id=${model}&status=succeeded&order=asc`, 1)).toEqual(expectedPages(succeeded, 1));
    expect(await walk(`${list}?model_id=${model}&status=succeeded`, 2)).toEqual(expectedPages([...succeeded].reverse(), 2));
    expect(await walk(`${list}?model_id=${model}&status=running`, 2)).toEqual(expectedPages([], 2));
    // A row the filters leave out, another model's, another team's: unknown cursors.
    expect(await get(`${list}?status=succeeded&after=${own[1].id}`)).toEqual(unknown(own[1].id));
    expect(await get(`${list}?model_id=${model}&after=${otherModel}`)).toEqual(unknown(otherModel));
    expect(await get(`${list}?after=${otherTeam}`)).toEqual(unknown(otherTeam));
    for (const after of [randomUUID(), "not-a-uuid"]) expect(await get(`${list}?after=${after}`)).toEqual(unknown(after));
  });
});

describe("a training job's events", () => {
  it("page in seq order; another job's event is an unknown cursor; another team's job is a 404", async () => {
    const model = await seedModel(user);
    const [job, other] = [await seedJob(model.id, "succeeded"), await seedJob(model.id, "succeeded")];
    const events: { id: string; createdAt: Date }[] = [];
    for (let seq = 1; seq <= 5; seq++) events.push(await getDb().trainingJobEvent.create({ data: { jobId: job.id, seq, type: "gradient_step", data: { step: seq } } }));
    const foreign = await getDb().trainingJobEvent.create({ data: { jobId: other.id, seq: 1, type: "training_started" } });
    const url = `/v1/preview/training-jobs/${job.id}/events`;

    const ids = events.map((e) => e.id);
    expect(await walk(url, 2)).toEqual(expectedPages(ids, 2));
    expect(await walk(url, 5)).toEqual(expectedPages(ids, 5));
    expect(await walk(`/v1/preview/training-jobs/${(await seedJob(model.id, "queued")).id}/events`, 2)).toEqual(expectedPages([], 2));
    const { body } = await get(`${url}?limit=1`);
    expect(body.data).toEqual([{ id: ids[0], type: "gradient_step", data: { step: 1 }, created_at: events[0].createdAt.toISOString() }]);
    // The order parameter is not part of the events query: ignored, always in seq order.
    expect(await walk(`${url}?order=desc`, 2)).toEqual(expectedPages(ids, 2));
    for (const after of [foreign.id, randomUUID(), "x"]) expect(await get(`${url}?after=${after}`)).toEqual(unknown(after));
    expect((await get(`${url}?after=${ids[0]}`, stranger)).status).toBe(404);
  });
});

describe("a model's checkpoints", () => {
  it("page by step in both orders, with logged metrics merged; another model's checkpoint is an unknown cursor", async () => {
    const [model, other] = [await seedModel(user), await seedModel(user)];
    const rows: { id: string; createdAt: Date }[] = [];
    for (const step of [2, 5, 7, 9]) rows.push(await getDb().checkpoint.create({ data: { modelId: model.id, step, file: `${model.id}/step-${step}.gguf`, metrics: { "train/loss": step } } }));
    await getDb().modelStepMetrics.create({ data: { modelId: model.id, step: 7, metrics: { "val/reward": 0.5 } } });
    const foreign = await getDb().checkpoint.create({ data: { modelId: other.id, step: 1, file: `${other.id}/step-1.gguf` } });
    const url = `/v1/preview/models/${model.id}/checkpoints`;

    const ids = rows.map((r) => r.id);
    expect(await walk(url, 3)).toEqual(expectedPages(ids, 3));
    expect(await walk(`${url}?order=desc`, 3)).toEqual(expectedPages([...ids].reverse(), 3));
    const { body } = await get(`${url}?limit=2&after=${ids[1]}`);
    expect(body).toEqual({
      object: "list",
      data: [7, 9].map((step, i) => ({ id: ids[2 + i], step, metrics: step === 7 ? { "train/loss": 7, "val/reward": 0.5 } : { "train/loss": 9 }, created_at: rows[2 + i].createdAt.toISOString() })),
      first_id: ids[2],
      last_id: ids[3],
      has_more: false,
    });
    for (const after of [foreign.id, randomUUID(), "x"]) expect(await get(`${url}?after=${after}`)).toEqual(unknown(after));
    expect((await get(url, stranger)).status).toBe(404);
  });
});

describe("a queue's items", () => {
  it("page by position in both orders; another queue's item is an unknown cursor", async () => {
    const w = await queueWorld(5);
    const [{ queue, items }, other] = [await createQueue(w), await createQueue(w, { name: "other" })];
    const path = `/annotation_queues/${queue.id}/items`;
    const pages = async (query: string, limit: number) => {
      const out = [];
      for (let after = ""; ;) {
        const { status, body } = await call(w.team.member, "GET", `${path}?${query}&limit=${limit}${after && `&after=${after}`}`);
        expect(status).toBe(200);
        out.push({ ids: body.data.map((i: { id: string }) => i.id), first_id: body.first_id, last_id: body.last_id, has_more: body.has_more });
        if (!body.has_more) return out;
        after = body.last_id;
      }
    };
    const ids = items.map((i: { id: string }) => i.id);
    expect(await pages("order=asc", 2)).toEqual(expectedPages(ids, 2));
    expect(await pages("order=desc", 2)).toEqual(expectedPages([...ids].reverse(), 2));
    expect(await pages("order=asc", 5)).toEqual(expectedPages(ids, 5));
    for (const after of [other.items[0].id, randomUUID(), "x"]) {
      expect(await call(w.team.member, "GET", `${path}?after=${after}`)).toEqual(unknown(after));
    }
  });
});
