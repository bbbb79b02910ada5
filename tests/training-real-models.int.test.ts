import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { openGguf } from "@/lib/engine/gguf/read-gguf";
import { F16_WEIGHTS } from "@/lib/engine/test-support/f16-weights";
import { LLAMA_FTYPE, quantizeGgufWithLlama } from "@/lib/engine/test-support/ggml-reference";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES, type RealArch } from "@/lib/engine/test-support/real-layout-shapes";
import { absoluteCheckpointPath } from "@/lib/training/jobs/job-files";
import { TrainingRunner } from "@/lib/training/jobs/runner";
import { jobSchema, type JobDto } from "@/lib/training/jobs/schemas";
import { modelSchema, type ModelDto } from "@/lib/training/models/schemas";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";
import { allEvents, waitFinished } from "./training-api";

// GGUFs in the layouts people download, random weights with the real tokenizers and chat templates,
// listed with "trainable": true and trained as an ART user does: a model created without LoRA
// settings trains a LoRA adapter, each checkpoint served by llama.cpp. The bases: an F32 Qwen3 file,
// and the three of issue 26's report, made as llama.cpp's tools make them — Qwen2.5 (q/k/v biases,
// NEOX RoPE, tied) as F16, Qwen3 (q/k norms, GQA, tied) quantized to Q8_0 by libllama's
// llama_model_quantize, Llama 3 (untied output, plain RoPE) as F16.

interface Base {
  name: string;
  arch: RealArch;
  file: string;
}
const BASES: Base[] = [
  { name: "test/qwen3", arch: "qwen3", file: "qwen3-f32.gguf" },
  { name: "test/qwen2-f16", arch: "qwen2", file: "qwen2-f16.gguf" },
  { name: "test/qwen3-q8_0", arch: "qwen3", file: "qwen3-q8_0.gguf" },
  { name: "test/llama3-f16", arch: "llama", file: "llama3-f16.gguf" },
];
const Q8_0_BASE = "test/qwen3-q8_0";

// What one short job on these tiny files may cost, with room for a loaded CI machine. Measured on 2
// cores at load average 13: 12–37 s a job; the process grew ~450 MiB during the first job (the
// training thread starts) and 40–150 MiB during later ones. Memory at real sizes is bench:lora's gate.
const MAX_JOB_SECONDS = 60;
const MAX_JOB_RSS_GROWTH = 2 ** 30;

let fixture: InferenceFixture;
let user: TestUser;
let runner: TrainingRunner;
useTempDataDir("real-models");

beforeAll(async () => {
  fixture = installInferenceModels();
  const file = (base: Base) => path.join(fixture.files.dir, base.file);
  const [qwen3, qwen2F16, qwen3Q8, llama3F16] = BASES.map(file);
  writeRealLayoutModel(qwen3, SMALL_SHAPES.qwen3, { name: "qwen3-small", seed: 3 });
  quantizeGgufWithLlama(qwen3, qwen3Q8, LLAMA_FTYPE.MOSTLY_Q8_0);
  writeRealLayoutModel(qwen2F16, SMALL_SHAPES.qwen2, { name: "qwen2-small", seed: 4, weights: F16_WEIGHTS });
  writeRealLayoutModel(llama3F16, SMALL_SHAPES.llamaUntied, { name: "llama3-small", seed: 5, weights: F16_WEIGHTS });
  const listing = path.join(fixture.files.dir, "real-models.json");
  const entries = JSON.parse(fs.readFileSync(process.env.ANNEAL_MODELS_FILE!, "utf8")) as unknown[];
  fs.writeFileSync(listing, JSON.stringify([...entries, ...BASES.map((base) => ({ name: base.name, gguf: file(base), trainable: true }))]));
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

async function createModel(base: Base, name: string): Promise<{ model: ModelDto; name: string }> {
  const res = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "real", name, base_model: base.name } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { model: modelSchema.parse(res.body), name: `${user.username}/real/${name}` };
}

/** Waits for the job to succeed, and checks its time and how much the process grew meanwhile (the
 *  embedded runner trains in a thread of this process). */
async function finished(res: { status: number; body: unknown }): Promise<JobDto> {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const rssBefore = process.memoryUsage.rss();
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 20);
  const job = await waitFinished(user.key, jobSchema.parse(res.body).id, 120_000).finally(() => clearInterval(sampler));
  expect(job.status, job.error ?? "").toBe("succeeded");
  const seconds = (Date.parse(job.finished_at!) - Date.parse(job.started_at!)) / 1000;
  const growth = rssPeak - rssBefore;
  console.log(`${job.kind} job: ${seconds.toFixed(1)} s, RSS +${(growth / 2 ** 20).toFixed(0)} MiB`);
  expect(seconds).toBeLessThan(MAX_JOB_SECONDS);
  expect(growth).toBeLessThan(MAX_JOB_RSS_GROWTH);
  return job;
}

/** Models trained by the SFT test, by base: the RL test goes on from the Q8_0 one. */
const trained = new Map<string, { model: ModelDto; name: string }>();

describe("GGUFs in real layouts listed as trainable", () => {
  it("are listed as LoRA-only bases, and their models train LoRA adapters by default", async () => {
    const { body: models } = await json(api("GET", "/v1/models", { bearer: user.key }));
    for (const base of BASES) expect(models.data.find((m: { id: string }) => m.id === base.name)).toMatchObject({ trainable: true, train_modes: ["lora"] });
    const { model } = await createModel(BASES[0], "art");
    expect(model.lora).toEqual({ rank: 16, alpha: 32, dropout: 0, target_modules: ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"] });
  });

  it.each(BASES)("$name: one SFT job trains a $arch LoRA adapter that llama.cpp serves as model:step1", async (base) => {
    const { model, name } = await createModel(base, `sft-${base.arch}-${BASES.indexOf(base)}`);
    const answer = (model: string) => chat(model, { temperature: 0, seed: 11 });
    const before = await answer(name);
    expect(before.status, JSON.stringify(before.body)).toBe(200);

    const examples = ["Say hi.", "Greet me.", "Hello?", "Hi!"].map((content) => ({ messages: [{ role: "user", content }, { role: "assistant", content: "Hi there." }] }));
    await finished(await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data: examples, config: { batch_size: 2 } } })));
    const checkpoint = await getDb().checkpoint.findFirstOrThrow({ where: { modelId: model.id, step: 1 } });
    expect(checkpoint.format).toBe("lora");
    const adapter = openGguf(absoluteCheckpointPath(checkpoint.file));
    try {
      expect(adapter.metadata["general.type"]?.value).toBe("adapter");
      expect(adapter.metadata["general.architecture"]?.value).toBe(base.arch);
      expect(adapter.metadata["adapter.lora.alpha"]?.value).toBe(32);
      expect(adapter.tensors.map((t) => t.name)).toContain("blk.0.attn_q.weight.lora_a");
    } finally {
      adapter.close();
    }

    const tuned = await answer(`${name}:step1`);
    expect(tuned.status, JSON.stringify(tuned.body)).toBe(200);
    expect(tuned.body.model).toBe(`${name}:step1`);
    expect(tuned.body.choices[0].logprobs).not.toEqual(before.body.choices[0].logprobs);
    trained.set(base.name, { model, name });
  }, 120_000);

  it("RL on the Q8_0 base's step 1, from groups the server sampled: served and trained log-probs agree", async () => {
    const q8 = trained.get(Q8_0_BASE);
    if (!q8) throw new Error(`the SFT test did not train a model on ${Q8_0_BASE}`);
    // RL on groups the server sampled from step 1, by token id: the trainer must read the same ids.
    const sampled = await chat(q8.name, { n: 4, temperature: 1, max_tokens: 6, seed: 5 });
    expect(sampled.status, JSON.stringify(sampled.body)).toBe(200);
    expect(sampled.body.model).toBe(`${q8.name}:step1`);
    const group = { trajectories: sampled.body.choices.map((choice: unknown, i: number) => ({ messages_and_choices: [{ role: "user", content: "Say hi." }, choice], reward: i % 2 })) };
    const job = await finished(await json(api("POST", "/v1/preview/training-jobs", { bearer: user.key, body: { model_id: q8.model.id, trajectory_groups: [group] } })));
    const firstStep = (await allEvents(user.key, job.id)).find((e) => e.type === "gradient_step");
    // llama.cpp computes on the Q8_0 blocks with its own kernels; the trainer reads the same blocks, sums
    // as ggml does, and a trainable base is served with an F32 KV cache and without flash attention:
    // measured 0 (the same bits), 0.045 with llama.cpp's defaults. The gate is 0.02.
    const ratio = firstStep?.data.served_abs_log_ratio;
    console.log(`served_abs_log_ratio on Q8_0: ${ratio}`);
    expect(ratio).toEqual(expect.any(Number));
    expect(ratio).toBeLessThanOrEqual(0.02);
    expect((await chat(q8.name)).body.model).toBe(`${q8.name}:step2`);
  }, 120_000);
});
