import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { dataPaths } from "@/lib/config/paths";
import { str } from "@/lib/engine/gguf/values";
import { rewriteGguf } from "@/lib/engine/test-support/rewrite-gguf";
import { getDb } from "@/lib/db/client";
import { chatCompletionSchema } from "@/lib/inference/chat-response";
import { checkpointPage, modelSchema } from "@/lib/training/models/schemas";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { createTestTeam, createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// Models, checkpoints and logs as ART's serverless client drives them, and serving a model's
// checkpoints by name through chat completions.

let fixture: InferenceFixture;
let user: TestUser;
useTempDataDir("models");

beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
});
afterAll(() => fixture.remove());

const createModel = (body: Record<string, unknown>, key = user.key) =>
  json(api("POST", "/v1/preview/models", { bearer: key, body: { project: "rl", base_model: "test/tiny", ...body } }));

/** A checkpoint as a finished job leaves it: a GGUF file under checkpoints/ and its row. */
async function seedCheckpoint(modelId: string, step: number, metrics: Record<string, number> = {}) {
  const file = `${modelId}/step-${step}.gguf`;
  fs.mkdirSync(path.join(dataPaths().checkpoints, modelId), { recursive: true });
  fs.copyFileSync(fixture.files.model, path.join(dataPaths().checkpoints, file));
  await getDb().checkpoint.create({ data: { modelId, step, file, metrics } });
  await getDb().model.update({ where: { id: modelId }, data: { currentStep: step } });
  return file;
}

describe("POST /v1/preview/models", () => {
  it("creates in the caller's personal team by default, and return_existing returns it", async () => {
    const created = await createModel({ name: "agent", entity: null });
    expect(created.status).toBe(200);
    const model = modelSchema.parse(created.body);
    expect(model).toMatchObject({ entity: user.username, project: "rl", name: "agent", base_model: "test/tiny", current_step: 0 });
    expect(await createModel({ name: "agent", return_existing: true })).toMatchObject({ status: 200, body: { id: model.id, run_id: model.run_id } });
    expect((await createModel({ name: "agent" })).status).toBe(409);
    const otherBase = await createModel({ name: "agent", base_model: "test/frozen", return_existing: true });
    expect(otherBase.status).toBe(409);
    expect(otherBase.body.detail).toMatch(/base_model 'test\/tiny', not 'test\/frozen'/);
  });

  it("an unknown base model is 400 listing the available ones; another team is 404; an annotator 403", async () => {
    const unknown = await createModel({ name: "x", base_model: "gpt-99" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/Unknown base_model 'gpt-99'. Available: .*test\/tiny/);
    const team = await createTestTeam();
    expect((await createModel({ name: "x", entity: team.name })).status).toBe(404);
    expect((await createModel({ name: "x", entity: team.name }, team.annotator.key)).status).toBe(403);
    expect((await createModel({ name: "x", entity: team.name }, team.member.key)).status).toBe(200);
  });

  it("accepts ART's body: nulls, extra fields and NaN literals", async () => {
    const raw = `{"entity": null, "project": "rl", "name": "art-style", "base_model": "test/tiny", "return_existing": true, "extra": NaN}`;
    const response = await json(api("POST", "/v1/preview/models", { bearer: user.key, rawBody: raw, headers: { "content-type": "application/json" } }));
    expect(response.status).toBe(200);
  });
});

describe("a GGUF listed as trainable", () => {
  /** Lists `file` as `test/listed` beside the fixture's models, for the duration of `body`. */
  async function withListing(entry: Record<string, unknown>, body: () => Promise<void>) {
    const original = process.env.ANNEAL_MODELS_FILE!;
    const listing = path.join(fixture.files.dir, "listing.json");
    fs.writeFileSync(listing, JSON.stringify([...JSON.parse(fs.readFileSync(original, "utf8")), { name: "test/listed", ...entry }]));
    process.env.ANNEAL_MODELS_FILE = listing;
    resetEnvCache();
    try {
      await body();
    } finally {
      process.env.ANNEAL_MODELS_FILE = original;
      resetEnvCache();
    }
  }

  it("is refused when listed if the trainer cannot read it, naming the architecture and no path; serve-only it lists", async () => {
    const qwen = path.join(fixture.files.dir, "gemma2-header.gguf");
    rewriteGguf(fixture.files.model, qwen, (metadata) => void (metadata["general.architecture"] = str("gemma2")));
    await withListing({ gguf: qwen, trainable: true }, async () => {
      for (const response of [await createModel({ name: "q", base_model: "test/listed" }), await json(api("GET", "/v1/models", { bearer: user.key }))]) {
        expect(response.status).toBe(503);
        expect(response.body.detail).toBe(
          `ANNEAL_MODELS_FILE lists 'test/listed' with "trainable": true, but Anneal cannot train it: architecture gemma2: the trainer reads llama, qwen2, qwen3 GGUFs. Remove "trainable" to serve it without training.`,
        );
        expect(JSON.stringify(response.body)).not.toContain(fixture.files.dir);
      }
    });
    await withListing({ gguf: qwen }, async () => {
      const models = await json(api("GET", "/v1/models", { bearer: user.key }));
      expect(models.body.data).toContainEqual(expect.objectContaining({ id: "test/listed", trainable: false }));
    });
  });
});

describe("checkpoints", () => {
  it("list by step with the cursor page, delete by step with files, current_step never goes back", async () => {
    const { body: model } = await createModel({ name: "with-checkpoints" });
    const empty = checkpointPage.parse((await json(api("GET", `/v1/preview/models/${model.id}/checkpoints`, { bearer: user.key }))).body);
    expect(empty).toEqual({ object: "list", data: [], first_id: "", last_id: "", has_more: false });
    for (const step of [1, 2, 3]) await seedCheckpoint(model.id, step, { "train/loss": 1 / step });

    const latest = checkpointPage.parse((await json(api("GET", `/v1/preview/models/${model.id}/checkpoints?limit=1&order=desc`, { bearer: user.key }))).body);
    expect(latest.data.map((c) => c.step)).toEqual([3]);
    expect(latest.has_more).toBe(true);
    const first = checkpointPage.parse((await json(api("GET", `/v1/preview/models/${model.id}/checkpoints?limit=2`, { bearer: user.key }))).body);
    expect(first.data.map((c) => c.step)).toEqual([1, 2]);
    expect(first.data[0].metrics).toEqual({ "train/loss": 1 });
    const rest = checkpointPage.parse((await json(api("GET", `/v1/preview/models/${model.id}/checkpoints?limit=2&after=${first.last_id}`, { bearer: user.key }))).body);
    expect(rest).toMatchObject({ has_more: false, data: [{ step: 3 }] });
    const unknown = await json(api("GET", `/v1/preview/models/${model.id}/checkpoints?after=${model.id}`, { bearer: user.key }));
    expect(unknown.status).toBe(422);

    const deleted = await json(api("DELETE", `/v1/preview/models/${model.id}/checkpoints`, { bearer: user.key, body: { steps: [1, 3, 7] } }));
    expect(deleted).toEqual({ status: 200, body: { deleted_count: 2, not_found_steps: [7] } });
    expect(fs.existsSync(path.join(dataPaths().checkpoints, model.id, "step-1.gguf"))).toBe(false);
    expect(fs.existsSync(path.join(dataPaths().checkpoints, model.id, "step-2.gguf"))).toBe(true);
    expect((await getDb().model.findUniqueOrThrow({ where: { id: model.id } })).currentStep).toBe(3);
    const again = await json(api("DELETE", `/v1/preview/models/${model.id}/checkpoints`, { bearer: user.key, body: { steps: [1] } }));
    expect(again.body).toEqual({ deleted_count: 0, not_found_steps: [1] });
  });

  it("another team's model is 404 on every route", async () => {
    const { body: model } = await createModel({ name: "private" });
    const stranger = await createTestUser();
    for (const [method, suffix, body] of [["GET", "/checkpoints", undefined], ["DELETE", "/checkpoints", { steps: [1] }], ["POST", "/log", { split: "val", trajectory_groups: [] }], ["DELETE", "", undefined]] as const) {
      expect((await api(method, `/v1/preview/models/${model.id}${suffix}`, { bearer: stranger.key, body })).status).toBe(404);
    }
  });
});

describe("POST .../log", () => {
  it("stores the groups and attaches averaged metrics to the current step", async () => {
    const { body: model } = await createModel({ name: "logged" });
    const trajectory = (reward: number, metrics: Record<string, unknown> = {}) => ({
      messages_and_choices: [{ role: "user", content: "2+2?" }, { finish_reason: "stop", index: 0, message: { role: "assistant", content: "4" } }],
      reward,
      metrics,
    });
    const response = await json(api("POST", `/v1/preview/models/${model.id}/log`, {
      bearer: user.key,
      body: {
        model_id: model.id,
        split: "val",
        trajectory_groups: [
          { trajectories: [trajectory(1, { correct: true }), trajectory(0, { correct: false })], exceptions: [] },
          { trajectories: [trajectory(0.5, { correct: true, len: 3 }), trajectory(0.5)], exceptions: [{ type: "ValueError", message: "x" }] },
        ],
      },
    }));
    expect(response).toEqual({ status: 200, body: {} });
    const metrics = (await getDb().modelStepMetrics.findUniqueOrThrow({ where: { modelId_step: { modelId: model.id, step: 0 } } })).metrics;
    expect(metrics).toEqual({
      "val/reward": 0.5,
      "val/reward_std_dev": 0.25, // groups' population std: 0.5 and 0
      "val/exception_rate": 1 / 5,
      "val/correct": 2 / 3,
      "val/len": 3,
    });
    expect(await getDb().loggedTrajectoryGroup.count({ where: { modelId: model.id, split: "val", step: 0 } })).toBe(2);
    const bad = await json(api("POST", `/v1/preview/models/${model.id}/log`, { bearer: user.key, body: { split: "val", trajectory_groups: [{}] } }));
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(["body", "trajectory_groups", "0", "trajectories"]);
  });
});

describe("DELETE /v1/preview/models/{id}", () => {
  it("deletes the model with its checkpoints and files; then it is 404", async () => {
    const { body: model } = await createModel({ name: "doomed" });
    await seedCheckpoint(model.id, 1);
    expect(await json(api("DELETE", `/v1/preview/models/${model.id}`, { bearer: user.key }))).toEqual({
      status: 200,
      body: { model_id: model.id, deleted_checkpoints: 1, deleted_run: true },
    });
    expect(fs.existsSync(path.join(dataPaths().checkpoints, model.id, "step-1.gguf"))).toBe(false);
    expect((await api("DELETE", `/v1/preview/models/${model.id}`, { bearer: user.key })).status).toBe(404);
  });
});

describe("serving a trained model", () => {
  it("by name (latest), by step (step 0 = base), and behind ART's artifact prefix; listed in /v1/models", async () => {
    const { body: model } = await createModel({ name: "served" });
    const chat = (name: string) => json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { model: name, messages: [{ role: "user", content: "hi" }], max_tokens: 3, seed: 1, ignore_eos: true } }));
    const base = `${user.username}/rl/served`;
    expect(chatCompletionSchema.parse((await chat(base)).body).model).toBe(`${base}:step0`);
    await seedCheckpoint(model.id, 1);
    expect(chatCompletionSchema.parse((await chat(base)).body).model).toBe(`${base}:step1`);
    expect(chatCompletionSchema.parse((await chat(`wandb-artifact:///${base}:step1`)).body).model).toBe(`${base}:step1`);
    expect(chatCompletionSchema.parse((await chat(`wandb-artifact://${base}:step0`)).body).model).toBe(`${base}:step0`);
    expect((await chat(`${base}:step9`)).status).toBe(404);
    const { body: models } = await json(api("GET", "/v1/models", { bearer: user.key }));
    expect(models.data.find((m: { id: string }) => m.id === base)).toMatchObject({ parent: "test/tiny", trainable: true });
  });

  it("records a trained model's calls in its own project unless Svc-Project names another; a base model's in the caller's default", async () => {
    await createModel({ name: "recorded" });
    const chat = (model: string, project?: string) =>
      api("POST", "/v1/chat/completions", {
        bearer: user.key,
        headers: project ? { "svc-project": project } : {},
        body: { model, messages: [{ role: "user", content: "hi" }], max_tokens: 2 },
      });
    const recordedIn = async (model: string, project?: string) => {
      const response = await chat(model, project);
      expect(response.status).toBe(200);
      return /^svc:\/\/\/([^/]+\/[^/]+)\/call\//.exec(response.headers.get("anneal-call-ref") ?? "")?.[1];
    };
    const name = `${user.username}/rl/recorded`;
    expect(await recordedIn(name)).toBe(`${user.username}/rl`);
    expect(await recordedIn(`${name}:step0`)).toBe(`${user.username}/rl`);
    expect(await recordedIn(name, `${user.username}/elsewhere`)).toBe(`${user.username}/elsewhere`);
    expect(await recordedIn("test/tiny")).toBe(`${user.username}/default`);
  });
});
