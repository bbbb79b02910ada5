import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { openGguf } from "@/lib/engine/gguf/read-gguf";
import { absoluteCheckpointPath, optimizerStatePath } from "@/lib/training/jobs/job-files";
import { TrainingRunner } from "@/lib/training/jobs/runner";
import { jobSchema } from "@/lib/training/jobs/schemas";
import { modelSchema } from "@/lib/training/models/schemas";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";
import { allEvents, TEST_RUNNER_SETTINGS, waitFinished } from "./training-api";

// A model that trains a LoRA adapter, end to end over HTTP: its settings validated and kept, SFT
// and RL jobs run by a real runner, each checkpoint a GGUF adapter over the untouched base that the
// engine serves by name the moment the job ends, the next job continuing from the newest adapter.

let fixture: InferenceFixture;
let user: TestUser;
let runner: TrainingRunner;
useTempDataDir("lora");

beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
  runner = new TrainingRunner(TEST_RUNNER_SETTINGS);
  await runner.start();
});
afterAll(async () => {
  await runner.stop();
  fixture.remove();
});

const createModel = (name: string, lora: unknown, extra: Record<string, unknown> = {}) =>
  json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "lora", name, base_model: "test/tiny", lora, ...extra } }));

const EXAMPLES = Array.from({ length: 6 }, (_, i) => ({ messages: [{ role: "user", content: `say ${i}` }, { role: "assistant", content: `ok ${i}` }] }));

async function runSft(modelId: string) {
  const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: modelId, training_data: EXAMPLES, config: { batch_size: 2, epochs: 2 } } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const job = await waitFinished(user.key, jobSchema.parse(res.body).id, 60_000);
  expect(job.status, job.error ?? "").toBe("succeeded");
  return job;
}

/** The next-token logprobs the engine serves for a fixed prompt under `model`. */
async function servedLogprobs(model: string) {
  const res = await json(
    api("POST", "/v1/chat/completions", {
      bearer: user.key,
      body: { model, messages: [{ role: "user", content: "say 3" }], max_tokens: 4, temperature: 0, logprobs: true, top_logprobs: 3 },
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { model: res.body.model as string, logprobs: res.body.choices[0].logprobs.content.map((t: { logprob: number }) => t.logprob) as number[] };
}

describe("LoRA models", () => {
  it("validate and keep their settings, with defaults filled in; another mode on return_existing is 409", async () => {
    const created = await createModel("settings", { rank: 8, target_modules: ["v_proj", "q_proj"] });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(modelSchema.parse(created.body).lora).toEqual({ rank: 8, alpha: 32, dropout: 0, target_modules: ["q_proj", "v_proj"] });
    expect((await createModel("settings", { rank: 8, alpha: 32, target_modules: ["q_proj", "v_proj"] }, { return_existing: true })).status).toBe(200);
    const other = await createModel("settings", null, { return_existing: true });
    expect(other.status).toBe(409);
    expect(other.body.detail).toMatch(/trains LoRA rank 8, alpha 32, dropout 0, modules q_proj, v_proj, not full weights/);
    const full = await createModel("full", undefined);
    expect(modelSchema.parse(full.body).lora).toBeNull();

    for (const [lora, field] of [
      [{ rank: 12 }, "rank"],
      [{ alpha: 0 }, "alpha"],
      [{ dropout: 0.6 }, "dropout"],
      [{ target_modules: [] }, "target_modules"],
      [{ target_modules: ["lm_head"] }, "target_modules"],
    ] as const) {
      const res = await createModel("bad", lora);
      expect(res.status, JSON.stringify(lora)).toBe(422);
      expect(res.body.detail[0].loc.slice(0, 3)).toEqual(["body", "lora", field]);
    }
  });

  it("train adapters over an untouched base, served by name at once; the next job continues from the newest adapter", async () => {
    const created = await createModel("adapter", { rank: 8, alpha: 16, dropout: 0.1 });
    const model = modelSchema.parse(created.body);
    const name = `${user.username}/lora/adapter`;
    const before = await servedLogprobs(name);
    expect(before.model).toBe(`${name}:step0`);

    const first = await runSft(model.id);
    const checkpoint = await getDb().checkpoint.findFirstOrThrow({ where: { modelId: model.id, step: 1 } });
    expect(checkpoint.format).toBe("lora");
    const adapter = openGguf(absoluteCheckpointPath(checkpoint.file));
    expect(adapter.metadata["general.type"]?.value).toBe("adapter");
    expect(adapter.metadata["adapter.lora.alpha"]?.value).toBe(16);
    // Every attention and MLP projection of each block, A and B; nothing else.
    expect(adapter.tensors).toHaveLength(2 * 7 * fixture.files.config.nLayers);
    expect(adapter.tensors.find((t) => t.name === "blk.0.attn_q.weight.lora_a")?.dims).toEqual([fixture.files.config.dim, 8]);
    adapter.close();
    expect((await allEvents(user.key, first.id)).at(-1)?.type).toBe("training_ended");

    const after = await servedLogprobs(name);
    expect(after.model).toBe(`${name}:step1`);
    expect(after.logprobs).not.toEqual(before.logprobs);
    // The base itself serves as before (llama.cpp's sums differ in the last bits with its batch).
    (await servedLogprobs(`${name}:step0`)).logprobs.forEach((logprob, i) => expect(logprob).toBeCloseTo(before.logprobs[i], 4));

    const firstOptimizer = optimizerStatePath(absoluteCheckpointPath(checkpoint.file));
    expect(fs.existsSync(firstOptimizer)).toBe(true);
    await runSft(model.id);
    const second = await getDb().checkpoint.findFirstOrThrow({ where: { modelId: model.id, step: 2 } });
    expect(second.format).toBe("lora");
    // The adapter moved on from step 1's, and only the newest checkpoint keeps an optimizer state.
    expect(fs.readFileSync(absoluteCheckpointPath(second.file)).equals(fs.readFileSync(absoluteCheckpointPath(checkpoint.file)))).toBe(false);
    expect(fs.existsSync(firstOptimizer)).toBe(false);
    expect(fs.existsSync(optimizerStatePath(absoluteCheckpointPath(second.file)))).toBe(true);
    expect((await servedLogprobs(name)).model).toBe(`${name}:step2`);
  });

  it("run RL jobs on rollouts the adapter served, and serve the new adapter", async () => {
    const model = modelSchema.parse((await createModel("rl", {})).body);
    const name = `${user.username}/lora/rl`;
    const groups = [];
    for (const prompt of ["say 1", "say 2"]) {
      const res = await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { model: name, messages: [{ role: "user", content: prompt }], n: 4, max_tokens: 6, temperature: 1, logprobs: true } }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      groups.push({ trajectories: res.body.choices.map((choice: unknown, i: number) => ({ messages_and_choices: [{ role: "user", content: prompt }, choice], reward: i % 2 })) });
    }
    const res = await json(api("POST", "/v1/preview/training-jobs", { bearer: user.key, body: { model_id: model.id, trajectory_groups: groups } }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await waitFinished(user.key, jobSchema.parse(res.body).id, 60_000);
    expect(job.status, job.error ?? "").toBe("succeeded");
    expect((await getDb().checkpoint.findFirstOrThrow({ where: { modelId: model.id } })).format).toBe("lora");
    expect((await servedLogprobs(name)).model).toBe(`${name}:step1`);
  });
});
