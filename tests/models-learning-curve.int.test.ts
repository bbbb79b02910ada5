import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { learningCurveSchema, modelPage } from "@/lib/training/models/schemas";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// GET .../learning-curve: the model's jobs, their gradient steps and its checkpoints on one axis
// (the console's charts across jobs and the playground's checkpoint picker); and finding a model
// by name, as the playground does for an inference name.

let fixture: InferenceFixture;
let user: TestUser;

beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
});
afterAll(() => fixture.remove());

async function createModel(name: string, key = user.key) {
  const response = await json(api("POST", "/v1/preview/models", { bearer: key, body: { project: "curves", name, base_model: "test/tiny" } }));
  expect(response.status).toBe(200);
  return response.body as { id: string; entity: string; project: string; name: string };
}

const get = async (path: string, key = user.key) => json(api("GET", path, { bearer: key }));
const curveOf = async (modelId: string) => {
  const response = await get(`/v1/preview/models/${modelId}/learning-curve`);
  expect(response.status).toBe(200);
  return learningCurveSchema.parse(response.body);
};

/** A job as the runner leaves it: its row, its gradient_step events, the checkpoint it wrote. */
async function seedJob(modelId: string, o: { kind: "rl" | "sft"; status: string; steps: Record<string, number>[]; checkpoint?: { step: number; metrics: Record<string, number> } }) {
  const db = getDb();
  const job = await db.trainingJob.create({
    data: { modelId, kind: o.kind, status: o.status, input: "{}", checkpointStep: o.checkpoint?.step, stepsDone: o.steps.length },
  });
  await db.trainingJobEvent.createMany({ data: o.steps.map((data, i) => ({ jobId: job.id, seq: i + 1, type: "gradient_step", data })) });
  if (o.checkpoint) {
    await db.checkpoint.create({ data: { modelId, step: o.checkpoint.step, file: `${modelId}/${job.id}.gguf`, metrics: o.checkpoint.metrics } });
    await db.model.update({ where: { id: modelId }, data: { currentStep: o.checkpoint.step } });
  }
  return job.id;
}

const logMetrics = (modelId: string, step: number, metrics: Record<string, number>) => getDb().modelStepMetrics.create({ data: { modelId, step, metrics } });

describe("GET .../learning-curve", () => {
  it("lays the jobs that trained the weights end to end, with each checkpoint at its job's end", async () => {
    const model = await createModel("across-jobs");
    expect(await curveOf(model.id)).toEqual({ jobs: [], gradient_steps: [], model_steps: [] });

    await logMetrics(model.id, 0, { "val/reward": 0.2 });
    // Attempt 2 resumed after step 2 and redid step 3: its report is the one that counts.
    const sft = await seedJob(model.id, {
      kind: "sft",
      status: "succeeded",
      steps: [{ step: 1, loss: 2 }, { step: 2, loss: 1.5 }, { step: 3, loss: 9 }, { step: 3, loss: 1.2, "val/loss": 1.4, attempt: 2 }],
      checkpoint: { step: 1, metrics: { "train/loss": 1.6 } },
    });
    await seedJob(model.id, { kind: "rl", status: "failed", steps: [{ step: 1, loss: 7 }] });
    const rl = await seedJob(model.id, { kind: "rl", status: "succeeded", steps: [{ step: 1, loss: 0.1, reward: 0.7 }], checkpoint: { step: 2, metrics: { "train/reward": 0.7 } } });
    await logMetrics(model.id, 1, { "val/reward": 0.5 });
    await logMetrics(model.id, 2, { "val/reward": 0.6 });
    await getDb().checkpoint.deleteMany({ where: { modelId: model.id, step: 1 } });
    const running = await seedJob(model.id, { kind: "rl", status: "running", steps: [{ step: 1, loss: 0.2 }] });
    const queued = await seedJob(model.id, { kind: "sft", status: "queued", steps: [] });

    const curve = await curveOf(model.id);
    expect(curve.jobs.map((j) => [j.id, j.kind, j.status, j.checkpoint_step, j.first_global_step, j.last_global_step])).toEqual([
      [sft, "sft", "succeeded", 1, 1, 3],
      [rl, "rl", "succeeded", 2, 4, 4],
      [running, "rl", "running", null, 5, 5],
      [queued, "sft", "queued", null, 6, 5],
    ]);
    expect(curve.gradient_steps).toEqual([
      { global_step: 1, job_id: sft, metrics: { loss: 2 } },
      { global_step: 2, job_id: sft, metrics: { loss: 1.5 } },
      { global_step: 3, job_id: sft, metrics: { loss: 1.2, "val/loss": 1.4 } },
      { global_step: 4, job_id: rl, metrics: { loss: 0.1, reward: 0.7 } },
      { global_step: 5, job_id: running, metrics: { loss: 0.2 } },
    ]);
    const checkpoint2 = await getDb().checkpoint.findFirstOrThrow({ where: { modelId: model.id, step: 2 } });
    expect(curve.model_steps).toEqual([
      { step: 0, global_step: 0, job_id: null, checkpoint_id: null, created_at: null, metrics: { "val/reward": 0.2 } },
      // Its checkpoint was deleted: what was logged at its step stays, at its job's end.
      { step: 1, global_step: 3, job_id: sft, checkpoint_id: null, created_at: null, metrics: { "val/reward": 0.5 } },
      { step: 2, global_step: 4, job_id: rl, checkpoint_id: checkpoint2.id, created_at: checkpoint2.createdAt.toISOString(), metrics: { "train/reward": 0.7, "val/reward": 0.6 } },
    ]);
  });

  it("keeps 500 evenly spaced steps of a long job, and every step with a metric most steps lack", async () => {
    const model = await createModel("long-job");
    const steps = Array.from({ length: 1200 }, (_, i) => ({ step: i + 1, loss: 1 / (i + 1), ...((i + 1) % 500 === 0 ? { "val/loss": 0.5 } : {}) }));
    await seedJob(model.id, { kind: "sft", status: "succeeded", steps, checkpoint: { step: 1, metrics: {} } });
    const curve = await curveOf(model.id);
    const kept = curve.gradient_steps.map((s) => s.global_step);
    expect(kept.length).toBeLessThanOrEqual(402);
    expect(kept.slice(0, 3)).toEqual([1, 4, 7]);
    expect(kept).toEqual(expect.arrayContaining([500, 1000, 1200]));
    expect(curve.jobs[0]).toMatchObject({ first_global_step: 1, last_global_step: 1200 });
    expect(curve.model_steps).toMatchObject([{ step: 1, global_step: 1200 }]);
  });

  it("is a 404 for another team's model and a 422 for an id that is not one", async () => {
    const model = await createModel("private");
    const stranger = await createTestUser();
    expect(await get(`/v1/preview/models/${model.id}/learning-curve`, stranger.key)).toEqual({ status: 404, body: { detail: `Model '${model.id}' not found.` } });
    expect((await get("/v1/preview/models/not-a-uuid/learning-curve")).status).toBe(422);
  });
});

describe("GET /v1/preview/models?name=", () => {
  it("finds the model of a name in a project", async () => {
    const wanted = await createModel("wanted");
    await createModel("wanted-not");
    const found = modelPage.parse((await get(`/v1/preview/models?project=${user.username}/curves&name=wanted`)).body);
    expect(found.data.map((m) => m.id)).toEqual([wanted.id]);
    expect(modelPage.parse((await get(`/v1/preview/models?project=${user.username}/other&name=wanted`)).body).data).toEqual([]);
    expect((await get("/v1/preview/models?name=Not%20A%20Name")).status).toBe(422);
  });
});
