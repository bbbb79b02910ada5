import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { openGguf } from "@/lib/engine/gguf/read-gguf";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES } from "@/lib/engine/test-support/real-layout-shapes";
import { absoluteCheckpointPath } from "@/lib/training/jobs/job-files";
import { TrainingRunner } from "@/lib/training/jobs/runner";
import { jobSchema } from "@/lib/training/jobs/schemas";
import { modelSchema } from "@/lib/training/models/schemas";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";
import { waitFinished } from "./training-api";

// A GGUF in the layout people download — Qwen3 (q/k norms, NEOX RoPE, tied output, GQA) with the
// real Qwen3 tokenizer and chat template, random weights — listed with "trainable": true, trained
// as an ART user does: a model created without LoRA settings trains a LoRA adapter, SFT on
// examples and RL on completions the server sampled from it, each checkpoint served by llama.cpp.

let fixture: InferenceFixture;
let user: TestUser;
let runner: TrainingRunner;
useTempDataDir("real-models");

beforeAll(async () => {
  fixture = installInferenceModels();
  const qwen3 = path.join(fixture.files.dir, "qwen3-small.gguf");
  writeRealLayoutModel(qwen3, SMALL_SHAPES.qwen3, { name: "qwen3-small", seed: 3 });
  const listing = path.join(fixture.files.dir, "real-models.json");
  const entries = JSON.parse(fs.readFileSync(process.env.ANNEAL_MODELS_FILE!, "utf8")) as unknown[];
  fs.writeFileSync(listing, JSON.stringify([...entries, { name: "test/qwen3", gguf: qwen3, trainable: true }]));
  process.env.ANNEAL_MODELS_FILE = listing;
  resetEnvCache();
  user = await createTestUser();
  runner = new TrainingRunner({ kind: "embedded", leaseMs: 10_000, heartbeatMs: 200, pollMs: 50, maxAttempts: 1, concurrency: 1, stallMs: 120_000 });
  await runner.start();
}, 120_000);
afterAll(async () => {
  await runner.stop();
  fixture.remove();
});

const chat = (model: string, extra: Record<string, unknown> = {}) =>
  json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { model, messages: [{ role: "user", content: "Say hi." }], max_tokens: 4, logprobs: true, ...extra } }));

async function finished(res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const job = await waitFinished(user.key, jobSchema.parse(res.body).id, 120_000);
  expect(job.status, job.error ?? "").toBe("succeeded");
  return job;
}

describe("a Qwen3-layout GGUF listed as trainable", () => {
  it("is listed as a LoRA-only base, and its models train LoRA adapters by default", async () => {
    const { body: models } = await json(api("GET", "/v1/models", { bearer: user.key }));
    expect(models.data.find((m: { id: string }) => m.id === "test/qwen3")).toMatchObject({ trainable: true, train_modes: ["lora"] });
    const created = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "real", name: "art", base_model: "test/qwen3" } }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(modelSchema.parse(created.body).lora).toEqual({ rank: 16, alpha: 32, dropout: 0, target_modules: ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"] });
  });

  it("trains SFT then RL on its served completions; each checkpoint is a qwen3 adapter llama.cpp serves at once", async () => {
    const model = modelSchema.parse((await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "real", name: "trained", base_model: "test/qwen3" } }))).body);
    const name = `${user.username}/real/trained`;
    const base = await chat(name, { temperature: 0 });
    expect(base.status, JSON.stringify(base.body)).toBe(200);

    const examples = ["Say hi.", "Greet me.", "Hello?", "Hi!"].map((content) => ({ messages: [{ role: "user", content }, { role: "assistant", content: "Hi there." }] }));
    await finished(await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data: examples, config: { batch_size: 2 } } })));
    const checkpoint = await getDb().checkpoint.findFirstOrThrow({ where: { modelId: model.id, step: 1 } });
    expect(checkpoint.format).toBe("lora");
    const adapter = openGguf(absoluteCheckpointPath(checkpoint.file));
    expect(adapter.metadata["general.architecture"]?.value).toBe("qwen3");
    adapter.close();
    const tuned = await chat(name, { temperature: 0 });
    expect(tuned.status, JSON.stringify(tuned.body)).toBe(200);
    expect(tuned.body.model).toBe(`${name}:step1`);
    expect(tuned.body.choices[0].logprobs).not.toEqual(base.body.choices[0].logprobs);

    // RL on groups the server sampled from step 1, by token id: the trainer must read the same ids.
    const sampled = await chat(name, { n: 4, temperature: 1, max_tokens: 6 });
    expect(sampled.status, JSON.stringify(sampled.body)).toBe(200);
    const group = { trajectories: sampled.body.choices.map((choice: unknown, i: number) => ({ messages_and_choices: [{ role: "user", content: "Say hi." }, choice], reward: i % 2 })) };
    await finished(await json(api("POST", "/v1/preview/training-jobs", { bearer: user.key, body: { model_id: model.id, trajectory_groups: [group] } })));
    expect((await chat(name)).body.model).toBe(`${name}:step2`);
  }, 300_000);
});
