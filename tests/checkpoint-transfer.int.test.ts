import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { openGguf } from "@/lib/engine/gguf/read-gguf";
import { loraShapes, loraSites, LORA_TARGETS, type LoraAdapter } from "@/lib/engine/model/lora";
import { writePeftZip } from "@/lib/engine/peft/peft-adapter";
import { readZip, writeZip } from "@/lib/engine/peft/zip";
import { writeRealLayoutLora } from "@/lib/engine/test-support/real-layout-lora";
import { SMALL_SHAPES } from "@/lib/engine/test-support/real-layout-shapes";
import { absoluteCheckpointPath } from "@/lib/training/jobs/job-files";
import { TrainingRunner } from "@/lib/training/jobs/runner";
import { jobSchema } from "@/lib/training/jobs/schemas";
import { importedCheckpointSchema } from "@/lib/training/models/checkpoint-transfer-schemas";
import { modelDetailSchema, modelSchema } from "@/lib/training/models/schemas";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";
import { TEST_RUNNER_SETTINGS, waitFinished } from "./training-api";

// Checkpoints out and in over HTTP: a trained LoRA checkpoint downloads as its GGUF adapter and as a
// PEFT zip; the zip imported into another model is a checkpoint that serves what the original serves;
// adapters that do not fit the model, full-weights models and other teams' models are refused.

let fixture: InferenceFixture;
let user: TestUser;
let stranger: TestUser;
let runner: TrainingRunner;
let tmp: string;
useTempDataDir("transfer");

const LORA = { rank: 8, alpha: 16, dropout: 0.05 };
let trained: { id: string; name: string };
let peftZip: Uint8Array;
let ggufLora: Uint8Array;

beforeAll(async () => {
  fixture = installInferenceModels([], { tinyHfName: "anneal-test/Tiny-Chat" });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-transfer-uploads-"));
  [user, stranger] = [await createTestUser(), await createTestUser()];
  runner = new TrainingRunner(TEST_RUNNER_SETTINGS);
  await runner.start();
  const model = await createModel("trained", LORA);
  const examples = Array.from({ length: 6 }, (_, i) => ({ messages: [{ role: "user", content: `say ${i}` }, { role: "assistant", content: `ok ${i}` }] }));
  const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data: examples, config: { batch_size: 2, epochs: 2 } } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect((await waitFinished(user.key, jobSchema.parse(res.body).id, 60_000)).status).toBe("succeeded");
  trained = { id: model.id, name: `${user.username}/transfer/trained` };
}, 120_000);
afterAll(async () => {
  await runner.stop();
  fixture.remove();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function createModel(name: string, lora: unknown) {
  const res = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "transfer", name, base_model: "test/tiny", lora } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return modelSchema.parse(res.body);
}

const download = (modelId: string, step: number, query = "", as = user) => api("GET", `/v1/preview/models/${modelId}/checkpoints/${step}/download${query}`, { bearer: as.key });
const upload = (modelId: string, body: Uint8Array, query = "", contentType = "application/zip", as = user) =>
  json(api("POST", `/v1/preview/models/${modelId}/checkpoints${query}`, { bearer: as.key, body, headers: { "content-type": contentType } }));
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

async function servedLogprobs(model: string): Promise<{ model: string; logprobs: number[] }> {
  const res = await json(
    api("POST", "/v1/chat/completions", { bearer: user.key, body: { model, messages: [{ role: "user", content: "say 3" }], max_tokens: 4, temperature: 0, logprobs: true } }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { model: res.body.model, logprobs: res.body.choices[0].logprobs.content.map((t: { logprob: number }) => t.logprob) };
}

describe("downloading a LoRA checkpoint", () => {
  it("as its GGUF adapter (the default), byte for byte the checkpoint's file", async () => {
    for (const query of ["", "?format=gguf-lora"]) {
      const response = await download(trained.id, 1, query);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/octet-stream");
      expect(response.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''trained-step1-lora.gguf");
      ggufLora = await bytesOf(response);
    }
    const checkpoint = await getDb().checkpoint.findFirstOrThrow({ where: { modelId: trained.id, step: 1 } });
    expect(Buffer.from(ggufLora).equals(fs.readFileSync(absoluteCheckpointPath(checkpoint.file)))).toBe(true);
  });

  it("as a PEFT zip: adapter_config.json with the model's settings and adapter_model.safetensors", async () => {
    const response = await download(trained.id, 1, "?format=peft");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''trained-step1-peft.zip");
    peftZip = await bytesOf(response);
    const files = readZip(peftZip, { maxUnpackedBytes: 64 << 20 });
    expect([...files.keys()]).toEqual(["adapter_config.json", "adapter_model.safetensors"]);
    expect(JSON.parse(Buffer.from(files.get("adapter_config.json")!).toString())).toEqual({
      peft_type: "LORA", task_type: "CAUSAL_LM", base_model_name_or_path: "anneal-test/Tiny-Chat", r: 8, lora_alpha: 16, lora_dropout: 0.05,
      target_modules: ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"], bias: "none", fan_in_fan_out: false,
    });
  });

  it("refuses formats the checkpoint is not, an unknown step and another team's model", async () => {
    const gguf = await json(download(trained.id, 1, "?format=gguf"));
    expect(gguf.status).toBe(400);
    expect(gguf.body.detail).toMatch(/LoRA adapter: download it as format=gguf-lora, format=peft, format=merged-gguf/);
    expect((await json(download(trained.id, 1, "?format=zip"))).status).toBe(422);
    expect((await json(download(trained.id, 9))).status).toBe(404);
    expect((await json(download(trained.id, 1, "", stranger))).status).toBe(404);
  });
});

describe("downloading a full-weights checkpoint", () => {
  it("as its GGUF (format=gguf, the default); the adapter formats are 400s saying so", async () => {
    const model = await createModel("full-download", null);
    // A full-weights checkpoint's file is a whole model: the base itself stands in for one here.
    const file = path.join(model.id, "full.gguf");
    fs.mkdirSync(absoluteCheckpointPath(model.id), { recursive: true });
    fs.copyFileSync(fixture.files.model, absoluteCheckpointPath(file));
    await getDb().checkpoint.create({ data: { modelId: model.id, step: 1, file, format: "full" } });
    for (const query of ["", "?format=gguf"]) {
      const response = await download(model.id, 1, query);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''full-download-step1.gguf");
      expect(Buffer.from(await bytesOf(response)).equals(fs.readFileSync(fixture.files.model))).toBe(true);
    }
    for (const format of ["gguf-lora", "peft", "merged-gguf"]) {
      const res = await json(download(model.id, 1, `?format=${format}`));
      expect(res).toEqual({ status: 400, body: { detail: "Step 1 holds full weights, not a LoRA adapter: download it as format=gguf (a GGUF llama.cpp serves as it is)." } });
    }
  });
});

describe("importing an adapter", () => {
  it("a PEFT zip becomes the model's next checkpoint, served at once with the original's log-probabilities", async () => {
    const model = await createModel("imported", LORA);
    const res = await upload(model.id, peftZip);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(importedCheckpointSchema.parse(res.body)).toMatchObject({ step: 1, format: "lora", source: "peft" });
    const detail = modelDetailSchema.parse((await json(api("GET", `/v1/preview/models/${model.id}`, { bearer: user.key }))).body);
    expect(detail).toMatchObject({ current_step: 1, latest_checkpoint_step: 1 });

    const original = await servedLogprobs(`${trained.name}:step1`);
    const imported = await servedLogprobs(`${user.username}/transfer/imported`);
    expect(imported.model).toBe(`${user.username}/transfer/imported:step1`);
    expect(imported.logprobs).toEqual(original.logprobs);
    // Written as a trained checkpoint is: a GGUF adapter with the original's tensors, bit for bit.
    const files = await Promise.all([trained.id, model.id].map((modelId) => getDb().checkpoint.findFirstOrThrow({ where: { modelId, step: 1 } })));
    const [a, b] = files.map((c) => openGguf(absoluteCheckpointPath(c.file)));
    expect(b.tensors.map((t) => t.name)).toEqual(a.tensors.map((t) => t.name));
    for (const t of a.tensors) expect(Buffer.from(b.readTensorBytes(t.name)).equals(Buffer.from(a.readTensorBytes(t.name))), t.name).toBe(true);
    expect(b.metadata["general.name"]?.value).toBe(`${user.username}/transfer/imported`);
    [a, b].forEach((f) => f.close());
  });

  it("a GGUF LoRA too, at a step named after the newest (never at or before it)", async () => {
    const model = await createModel("from-gguf", LORA);
    const res = await upload(model.id, ggufLora, "?step=5", "application/octet-stream");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ step: 5, source: "gguf-lora" });
    const again = await upload(model.id, ggufLora, "?step=5", "application/octet-stream");
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/not after the model's current step 5/);
    expect((await upload(model.id, ggufLora, "", "application/octet-stream")).body).toMatchObject({ step: 6 });
    expect((await servedLogprobs(`${user.username}/transfer/from-gguf`)).logprobs).toEqual((await servedLogprobs(`${trained.name}:step1`)).logprobs);
  });

  it("keeps an alpha float32 cannot hold exactly: exported as given, imported again", async () => {
    const config = fixture.files.config;
    const adapters: Record<string, LoraAdapter> = {};
    for (const { weight } of loraSites(config, { rank: 8, alpha: 0.1, dropout: 0, targets: LORA_TARGETS })) {
      const { a, b } = loraShapes(config, weight, 8);
      adapters[weight] = { a: new Float32Array(a[0] * a[1]).fill(0.5), b: new Float32Array(b[0] * b[1]).fill(0.25), rank: 8 };
    }
    const [first, second] = [await createModel("alpha-a", { ...LORA, alpha: 0.1 }), await createModel("alpha-b", { ...LORA, alpha: 0.1 })];
    expect((await upload(first.id, writePeftZip({ config, adapters, alpha: 0.1, dropout: 0, baseModelName: "x" }))).status).toBe(201);
    const exported = await bytesOf(await download(first.id, 1, "?format=peft"));
    expect(JSON.parse(Buffer.from(readZip(exported, { maxUnpackedBytes: 64 << 20 }).get("adapter_config.json")!).toString()).lora_alpha).toBe(0.1);
    expect((await upload(second.id, exported)).status).toBe(201);
    expect((await upload(second.id, await bytesOf(await download(first.id, 1)), "", "application/octet-stream")).status).toBe(201);
  });

  it("refuses adapters that do not fit the model: rank, modules, shapes, architecture", async () => {
    const rank16 = await createModel("rank16", { ...LORA, rank: 16 });
    const rank = await upload(rank16.id, peftZip);
    expect(rank).toEqual({ status: 400, body: { detail: expect.stringMatching(/rank is 8; this model's adapters are rank 16/) } });

    const attention = await createModel("attention", { ...LORA, target_modules: ["q_proj", "v_proj"] });
    const modules = await upload(attention.id, peftZip);
    expect(modules.status).toBe(400);
    expect(modules.body.detail).toMatch(/adapts q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj; this model adapts q_proj, v_proj/);

    // An adapter for a base twice as wide.
    const config = fixture.files.config;
    const wide = { ...config, dim: config.dim * 2 };
    const adapters: Record<string, LoraAdapter> = {};
    for (const { weight } of loraSites(wide, { rank: 8, alpha: 16, dropout: 0, targets: LORA_TARGETS })) {
      const { a, b } = loraShapes(wide, weight, 8);
      adapters[weight] = { a: new Float32Array(a[0] * a[1]), b: new Float32Array(b[0] * b[1]), rank: 8 };
    }
    const model = await createModel("shapes", LORA);
    const shapes = await upload(model.id, writePeftZip({ config: wide, adapters, alpha: 16, dropout: 0, baseModelName: "x" }));
    expect(shapes.status).toBe(400);
    expect(shapes.body.detail).toMatch(/base_model\.model\.model\.layers\.0\.self_attn\.q_proj\.lora_A\.weight is \[8,\d+\]; this base with r = 8 needs \[8,\d+\]/);

    const qwenLora = path.join(tmp, "qwen2-lora.gguf");
    writeRealLayoutLora(qwenLora, SMALL_SHAPES.qwen2, { rank: 8, alpha: 16 });
    const arch = await upload(model.id, fs.readFileSync(qwenLora), "", "application/octet-stream");
    expect(arch).toEqual({ status: 400, body: { detail: "The adapter does not fit this model: a LoRA adapter of a qwen2 model, not of this llama base." } });
    expect(await getDb().checkpoint.count({ where: { modelId: { in: [rank16.id, attention.id, model.id] } } })).toBe(0);
  });

  it("refuses a full-weights model, a body that is no adapter, and another team's model", async () => {
    const full = await createModel("full", null);
    const res = await upload(full.id, peftZip);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/trains full weights: it cannot take a LoRA adapter/);
    const model = await createModel("garbage", LORA);
    const garbage = await upload(model.id, new Uint8Array(Buffer.from("{\"not\": \"an adapter\"}")));
    expect(garbage.status).toBe(422);
    expect(garbage.body.detail[0]).toMatchObject({ loc: ["body"], type: "adapter_invalid" });
    const truncated = await upload(model.id, peftZip.subarray(0, 200));
    expect(truncated.status).toBe(422);
    expect(truncated.body.detail[0].msg).toMatch(/Not a valid PEFT zip/);
    // An archive that unpacks to more than this model's adapter can be (its F32 tensors and 1 MiB) is refused unread.
    const padded = await upload(model.id, writeZip([{ name: "adapter_model.safetensors", data: new Uint8Array(2 << 20) }]));
    expect(padded.status).toBe(413);
    expect(padded.body.detail).toMatch(/larger than this model's adapter: the archive unpacks to 2097152 bytes/);
    expect((await upload(trained.id, peftZip, "", "application/zip", stranger)).status).toBe(404);
    // While a job of the model is queued or running (it trains from the newest checkpoint).
    await getDb().trainingJob.create({ data: { modelId: model.id, kind: "sft", status: "queued", input: "{}" } });
    const busy = await upload(model.id, peftZip);
    expect(busy.status).toBe(409);
    expect(busy.body.detail).toMatch(/Cannot import a checkpoint while training job .* is (queued|running)/);
  });
});
