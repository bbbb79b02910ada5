import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { loggedTrajectoryGroupPage, modelDetailSchema, modelMetricsSchema, modelPage } from "@/lib/training/models/schemas";
import { api, json } from "./http";
import { createTestTeam, createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// The read endpoints the console's Models pages use: models by team and project, one model, its
// logged trajectory groups and every step's metrics. Another team's model is a 404 everywhere.

let fixture: InferenceFixture;
let user: TestUser;

beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
});
afterAll(() => fixture.remove());

async function createModel(body: Record<string, unknown>, key = user.key) {
  const response = await json(api("POST", "/v1/preview/models", { bearer: key, body: { project: "browse", base_model: "test/tiny", ...body } }));
  expect(response.status).toBe(200);
  return response.body as { id: string; entity: string; project: string; name: string };
}

const get = async (path: string, key = user.key) => json(api("GET", path, { bearer: key }));

/** A checkpoint row as a finished job leaves it (the file is not read here). */
async function seedCheckpoint(modelId: string, step: number, metrics: Record<string, number>) {
  await getDb().checkpoint.create({ data: { modelId, step, file: `${modelId}/step-${step}.gguf`, metrics } });
  await getDb().model.update({ where: { id: modelId }, data: { currentStep: step } });
}

const trajectory = (reward: number, answer = "4") => ({
  messages_and_choices: [
    { role: "user", content: "2+2?" },
    { finish_reason: "stop", index: 0, message: { role: "assistant", content: answer } },
  ],
  reward,
  metrics: { correct: reward > 0.5 },
});

const log = (modelId: string, split: string, groups: unknown[]) =>
  json(api("POST", `/v1/preview/models/${modelId}/log`, { bearer: user.key, body: { split, trajectory_groups: groups } }));

describe("GET /v1/preview/models", () => {
  it("lists the caller's models newest first, by project or team, with cursor pages", async () => {
    const owner = await createTestUser();
    const team = await createTestTeam();
    const a = await createModel({ name: "a" }, owner.key);
    const b = await createModel({ name: "b" }, owner.key);
    const c = await createModel({ name: "c", project: "other" }, owner.key);
    const inTeam = await createModel({ name: "t", entity: team.name }, team.member.key);
    await seedCheckpoint(b.id, 1, {});
    await seedCheckpoint(b.id, 2, {});

    const all = modelPage.parse((await get("/v1/preview/models", owner.key)).body);
    expect(all.data.map((m) => m.name)).toEqual(["c", "b", "a"]);
    expect(all.data[1]).toMatchObject({ id: b.id, entity: owner.username, project: "browse", current_step: 2, latest_checkpoint_step: 2 });
    expect(all.data[2].latest_checkpoint_step).toBeNull();

    const inProject = modelPage.parse((await get(`/v1/preview/models?project=${owner.username}/browse`, owner.key)).body);
    expect(inProject.data.map((m) => m.id)).toEqual([b.id, a.id]);
    const emptyProject = await get(`/v1/preview/models?project=${owner.username}/nothing-here`, owner.key);
    expect(emptyProject).toEqual({ status: 200, body: { object: "list", data: [], first_id: "", last_id: "", has_more: false } });

    const page1 = modelPage.parse((await get("/v1/preview/models?limit=2", owner.key)).body);
    expect(page1).toMatchObject({ has_more: true, first_id: c.id, last_id: b.id });
    const page2 = modelPage.parse((await get(`/v1/preview/models?limit=2&after=${page1.last_id}`, owner.key)).body);
    expect(page2).toMatchObject({ has_more: false, data: [{ id: a.id }] });
    const oldestFirst = modelPage.parse((await get("/v1/preview/models?order=asc&limit=1", owner.key)).body);
    expect(oldestFirst.data[0].id).toBe(a.id);

    // The team member sees the team's model beside their own; the owner never sees the team's.
    const member = modelPage.parse((await get(`/v1/preview/models?entity=${team.name}`, team.member.key)).body);
    expect(member.data.map((m) => m.id)).toEqual([inTeam.id]);
    expect(all.data.map((m) => m.id)).not.toContain(inTeam.id);
  });

  it("another team is 404, an annotator's team 403, a foreign cursor or mismatched filters 422", async () => {
    const team = await createTestTeam();
    const mine = await createModel({ name: "mine" });
    const theirs = await createModel({ name: "theirs", entity: team.name }, team.member.key);
    expect((await get(`/v1/preview/models?entity=${team.name}`)).status).toBe(404);
    expect((await get(`/v1/preview/models?project=${team.name}/browse`)).status).toBe(404);
    expect((await get(`/v1/preview/models?entity=${team.name}`, team.annotator.key)).status).toBe(403);
    // Unfiltered, an annotator simply has no models to see in that team.
    expect(modelPage.parse((await get("/v1/preview/models", team.annotator.key)).body).data.map((m) => m.id)).not.toContain(theirs.id);
    const foreignCursor = await get(`/v1/preview/models?after=${theirs.id}`);
    expect(foreignCursor.status).toBe(422);
    expect(foreignCursor.body.detail[0].loc).toEqual(["query", "after"]);
    const mismatch = await get(`/v1/preview/models?entity=${team.name}&project=${user.username}/browse`);
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.detail[0].loc).toEqual(["query", "entity"]);
    expect((await get("/v1/preview/models?project=no-slash")).status).toBe(422);
    expect(mine.entity).toBe(user.username);
  });
});

describe("GET /v1/preview/models/{id}", () => {
  it("returns the model with its latest checkpoint; another team's is 404", async () => {
    const model = await createModel({ name: "one" });
    const fresh = modelDetailSchema.parse((await get(`/v1/preview/models/${model.id}`)).body);
    expect(fresh).toMatchObject({ ...model, current_step: 0, latest_checkpoint_step: null });
    await seedCheckpoint(model.id, 1, {});
    await seedCheckpoint(model.id, 2, {});
    await getDb().checkpoint.deleteMany({ where: { modelId: model.id, step: 2 } });
    expect((await get(`/v1/preview/models/${model.id}`)).body).toMatchObject({ current_step: 2, latest_checkpoint_step: 1 });

    const stranger = await createTestUser();
    for (const suffix of ["", "/trajectory-groups", "/metrics"]) {
      const response = await get(`/v1/preview/models/${model.id}${suffix}`, stranger.key);
      expect(response, suffix).toEqual({ status: 404, body: { detail: `Model '${model.id}' not found.` } });
    }
    expect((await get("/v1/preview/models/not-a-uuid")).status).toBe(422);
  });
});

describe("GET .../trajectory-groups", () => {
  it("pages the logged groups, filtered by split and step", async () => {
    const model = await createModel({ name: "groups" });
    expect((await log(model.id, "train", [{ trajectories: [trajectory(1), trajectory(0, "5")] }])).status).toBe(200);
    expect((await log(model.id, "val", [{ trajectories: [trajectory(1)] }, { trajectories: [trajectory(0.25)] }])).status).toBe(200);
    await seedCheckpoint(model.id, 1, {});
    expect((await log(model.id, "val", [{ trajectories: [trajectory(0.75)] }])).status).toBe(200);

    const all = loggedTrajectoryGroupPage.parse((await get(`/v1/preview/models/${model.id}/trajectory-groups`)).body);
    expect(all.data.map((g) => [g.split, g.step, g.reward_mean])).toEqual([
      ["train", 0, 0.5],
      ["val", 0, 1],
      ["val", 0, 0.25],
      ["val", 1, 0.75],
    ]);
    expect(all.data[0].trajectories[1]).toMatchObject({
      reward: 0,
      metrics: { correct: false },
      messages_and_choices: [{ role: "user", content: "2+2?" }, { message: { role: "assistant", content: "5" } }],
    });

    const val0 = loggedTrajectoryGroupPage.parse((await get(`/v1/preview/models/${model.id}/trajectory-groups?split=val&step=0`)).body);
    expect(val0.data.map((g) => g.reward_mean)).toEqual([1, 0.25]);
    const first = loggedTrajectoryGroupPage.parse((await get(`/v1/preview/models/${model.id}/trajectory-groups?split=val&limit=1&order=desc`)).body);
    expect(first).toMatchObject({ has_more: true, data: [{ step: 1 }] });
    const next = loggedTrajectoryGroupPage.parse(
      (await get(`/v1/preview/models/${model.id}/trajectory-groups?split=val&limit=5&order=desc&after=${first.last_id}`)).body,
    );
    expect(next).toMatchObject({ has_more: false });
    expect(next.data.map((g) => g.reward_mean)).toEqual([0.25, 1]);
    expect((await get(`/v1/preview/models/${model.id}/trajectory-groups?after=${model.id}`)).status).toBe(422);
    expect((await get(`/v1/preview/models/${model.id}/trajectory-groups?step=-1`)).status).toBe(422);
  });
});

describe("GET .../metrics", () => {
  it("merges checkpoint and logged metrics per step, keeping steps whose checkpoint was deleted", async () => {
    const model = await createModel({ name: "charted" });
    const empty = await get(`/v1/preview/models/${model.id}/metrics`);
    expect(empty).toEqual({ status: 200, body: { data: [] } });

    await log(model.id, "val", [{ trajectories: [trajectory(1), trajectory(0)] }]); // step 0: before any training
    await seedCheckpoint(model.id, 1, { "train/loss": 0.9, "train/reward": 0.4 });
    await log(model.id, "val", [{ trajectories: [trajectory(1)] }]);
    await seedCheckpoint(model.id, 2, { "train/loss": 0.5 });
    await seedCheckpoint(model.id, 3, { "train/loss": 0.3 });
    await log(model.id, "val", [{ trajectories: [trajectory(0)] }]);
    const deleted = await json(api("DELETE", `/v1/preview/models/${model.id}/checkpoints`, { bearer: user.key, body: { steps: [1, 3] } }));
    expect(deleted.body).toMatchObject({ deleted_count: 2 });

    const metrics = modelMetricsSchema.parse((await get(`/v1/preview/models/${model.id}/metrics`)).body);
    const val = (reward: number, correct: number) => ({ "val/reward": reward, "val/reward_std_dev": expect.any(Number), "val/exception_rate": 0, "val/correct": correct });
    expect(metrics.data).toEqual([
      { step: 0, metrics: val(0.5, 0.5) },
      { step: 1, metrics: val(1, 1) }, // checkpoint deleted: its logged metrics remain
      { step: 2, metrics: { "train/loss": 0.5 } },
      { step: 3, metrics: val(0, 0) },
    ]);
  });
});
