import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { writeLoraGguf } from "@/lib/engine/gguf/lora-gguf";
import { readPeftZip, writePeftZip } from "@/lib/engine/peft/peft-adapter";
import { readSafetensors } from "@/lib/engine/peft/safetensors";
import { writeZip } from "@/lib/engine/peft/zip";
import { randomLora } from "@/lib/engine/test-support/tiny-model";
import { upstreamAdapterName } from "@/lib/inference/upstream-adapters";
import { TrainingRunner } from "@/lib/training/jobs/runner";
import { jobSchema } from "@/lib/training/jobs/schemas";
import { absoluteCheckpointPath, importedCheckpointFileFor } from "@/lib/training/jobs/job-files";
import { modelSchema } from "@/lib/training/models/schemas";
import { probeLogprobs } from "@/lib/workers/probe";
import { getJob } from "./training-api";
import { recordCheckpoint } from "@/lib/training/models/record-checkpoint";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { createTestUser, createTestWorkerKey, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";
import { startVllmStandIn, type VllmStandIn } from "./vllm-stand-in";

// vLLM serving the LoRA checkpoints of its base (a models-file entry with `lora`). vLLM itself cannot
// run here (it needs a GPU): a stand-in HTTP server speaks the endpoints Anneal calls and records them.
// The base's shapes come from the test GGUF (a llama: its q/k adapters are stored permuted, so the
// PEFT directory vLLM loads is checked to come back as the checkpoint's adapter).

const HF_NAME = "Stand-In/Tiny-Llama";
const TRAINABLE_HF_NAME = "Stand-In/Trainable-Llama";
const VLLM_DIR = "/vllm/adapters";
let fixture: InferenceFixture;
let vllm: VllmStandIn;
let writeDir: string;
let user: TestUser;
useTempDataDir("vllm");

beforeAll(async () => {
  fixture = installInferenceModels();
  writeDir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-vllm-adapters-"));
  vllm = await startVllmStandIn(HF_NAME, { [VLLM_DIR]: writeDir });
  const listing = path.join(fixture.files.dir, "models.json");
  const upstream = { upstream: `${vllm.url}/v1`, upstream_model: HF_NAME };
  fs.writeFileSync(
    listing,
    JSON.stringify([
      ...JSON.parse(fs.readFileSync(listing, "utf8")),
      { name: "vllm/tiny", hf_name: HF_NAME, ...upstream, gguf: "tiny.gguf", lora: { write_dir: writeDir, vllm_dir: VLLM_DIR, max_loras: 1, max_rank: 16 } },
      { name: "vllm/plain", ...upstream },
      { name: "vllm/misplaced", ...upstream, gguf: "tiny.gguf", lora: { write_dir: writeDir, vllm_dir: "/not/shared", max_loras: 1, max_rank: 16 } },
      { name: "vllm/trainable", hf_name: TRAINABLE_HF_NAME, ...upstream, gguf: "tiny.gguf", trainable: true, lora: { write_dir: writeDir, vllm_dir: VLLM_DIR, max_loras: 2, max_rank: 16 } },
    ]),
  );
  resetEnvCache();
  user = await createTestUser();
});
afterAll(async () => {
  await vllm.close();
  fixture.remove();
  fs.rmSync(writeDir, { recursive: true, force: true });
});

async function createModel(name: string, base: string, lora: unknown) {
  const res = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "vllm", name, base_model: base, lora } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return modelSchema.parse(res.body);
}

/** A LoRA checkpoint as a trainer leaves it (Anneal's GGUF adapter, recorded), and the name vLLM will know it by. */
async function addCheckpoint(model: { id: string; name: string }, seed: number) {
  const file = importedCheckpointFileFor(model.id, randomUUID());
  fs.mkdirSync(path.dirname(absoluteCheckpointPath(file)), { recursive: true });
  const adapters = randomLora(fixture.files.config, seed, 8);
  writeLoraGguf(absoluteCheckpointPath(file), { config: fixture.files.config, adapters, alpha: 16 });
  const step = await getDb().$transaction((tx) => recordCheckpoint(tx, { modelId: model.id, metrics: {}, file, format: "lora" }));
  const { id } = await getDb().checkpoint.findUniqueOrThrow({ where: { modelId_step: { modelId: model.id, step } } });
  return { adapters, name: upstreamAdapterName({ entity: user.username, project: "vllm", name: model.name }, step, id) };
}

const chat = (model: string, stream = false) =>
  api("POST", "/v1/chat/completions", { bearer: user.key, body: { model, messages: [{ role: "user", content: "hi" }], max_tokens: 3, stream } });
const callsTo = (endpoint: string) => vllm.calls.filter((c) => c.path === `/v1/${endpoint}`);
const chatModels = () => callsTo("chat/completions").map((c) => c.body?.model);

describe("vLLM serving LoRA checkpoints", () => {
  let first: { id: string; name: string };
  let firstAdapter: Awaited<ReturnType<typeof addCheckpoint>>;
  let second: { id: string; name: string };
  let secondAdapter: Awaited<ReturnType<typeof addCheckpoint>>;

  beforeAll(async () => {
    first = await createModel("first", HF_NAME, { rank: 8, alpha: 16, target_modules: ["q_proj", "v_proj", "up_proj"] });
    firstAdapter = await addCheckpoint(first, 11);
    second = await createModel("second", "vllm/tiny", { rank: 8, alpha: 16, target_modules: ["q_proj", "v_proj", "up_proj"] });
    secondAdapter = await addCheckpoint(second, 12);
  });

  it("loads a checkpoint on its first request, from vllm_dir, and forwards under the adapter's name", async () => {
    vllm.calls.length = 0;
    const res = await json(chat(`${user.username}/vllm/first`));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ model: `${user.username}/vllm/first:step1`, choices: [{ message: { content: `reply from ${firstAdapter.name}` } }] });
    expect(firstAdapter.name).toMatch(new RegExp(`^${user.username}-vllm-first-s1-[0-9a-f]{8}$`));
    expect(callsTo("load_lora_adapter").map((c) => c.body)).toEqual([{ lora_name: firstAdapter.name, lora_path: `${VLLM_DIR}/${firstAdapter.name}` }]);
    expect(chatModels()).toEqual([firstAdapter.name]);
  });

  it("writes the adapter as a PEFT directory: PEFT's adapter_config.json and the checkpoint's weights", () => {
    const dir = path.join(writeDir, firstAdapter.name);
    expect(fs.readdirSync(dir).sort()).toEqual(["adapter_config.json", "adapter_model.safetensors"]);
    const config = JSON.parse(fs.readFileSync(path.join(dir, "adapter_config.json"), "utf8"));
    expect(config).toEqual({
      peft_type: "LORA", task_type: "CAUSAL_LM", base_model_name_or_path: HF_NAME, r: 8, lora_alpha: 16, lora_dropout: 0,
      target_modules: ["q_proj", "v_proj", "up_proj"], bias: "none", fan_in_fan_out: false,
    });
    const weights = fs.readFileSync(path.join(dir, "adapter_model.safetensors"));
    const { tensors } = readSafetensors(weights);
    expect(tensors["base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight"].shape).toEqual([8, fixture.files.config.dim]);
    expect(Object.keys(tensors)).toHaveLength(2 * 3 * fixture.files.config.nLayers);
    // Read back as PEFT's layout, the directory is the checkpoint's adapter (q/k rows permuted back).
    const back = readPeftZip(writeZip(fs.readdirSync(dir).map((name) => ({ name, data: fs.readFileSync(path.join(dir, name)) }))), fixture.files.config, 64 << 20);
    expect(back.adapters).toEqual(firstAdapter.adapters);
  });

  it("does not load it again for the next request (streamed)", async () => {
    vllm.calls.length = 0;
    const res = await chat(`${user.username}/vllm/first`, true);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`"model":"${user.username}/vllm/first:step1"`);
    expect(text).toContain(`reply from ${firstAdapter.name}`);
    expect(callsTo("load_lora_adapter")).toHaveLength(0);
    expect(chatModels()).toEqual([firstAdapter.name]);
  });

  it("beyond max_loras unloads the least recently used; concurrent first requests load once", async () => {
    vllm.calls.length = 0;
    const answers = await Promise.all([0, 1, 2].map(() => chat(`${user.username}/vllm/second`)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(callsTo("unload_lora_adapter").map((c) => c.body)).toEqual([{ lora_name: firstAdapter.name }]);
    expect(callsTo("load_lora_adapter").map((c) => c.body?.lora_name)).toEqual([secondAdapter.name]);
    expect(chatModels()).toEqual([secondAdapter.name, secondAdapter.name, secondAdapter.name]);
    expect([...vllm.adapters.keys()]).toEqual([secondAdapter.name]);

    vllm.calls.length = 0;
    expect((await chat(`${user.username}/vllm/first`)).status).toBe(200);
    expect(vllm.calls.map((c) => `${c.path} ${String(c.body?.lora_name ?? c.body?.model)}`)).toEqual([
      `/v1/unload_lora_adapter ${secondAdapter.name}`,
      `/v1/load_lora_adapter ${firstAdapter.name}`,
      `/v1/chat/completions ${firstAdapter.name}`,
    ]);
  });

  it("after vLLM restarts, the adapter loads again on the next request", async () => {
    vllm.restart();
    vllm.calls.length = 0;
    const res = await json(chat(`${user.username}/vllm/first`));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(vllm.calls.map((c) => `${c.path} ${String(c.body?.lora_name ?? c.body?.model)}`)).toEqual([
      `/v1/chat/completions ${firstAdapter.name}`,
      `/v1/load_lora_adapter ${firstAdapter.name}`,
      `/v1/chat/completions ${firstAdapter.name}`,
    ]);
  });

  it("after Anneal restarts, vLLM's 'already loaded' counts as loaded", async () => {
    // A new process knows of no loaded adapter: its registry is empty.
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("anneal.upstreamAdapters")];
    vllm.calls.length = 0;
    const res = await json(chat(`${user.username}/vllm/first`));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(callsTo("load_lora_adapter").map((c) => c.body?.lora_name)).toEqual([firstAdapter.name]);
    expect(chatModels()).toEqual([firstAdapter.name]);
  });

  it("a directory vLLM cannot see is a 503 saying what to check", async () => {
    const model = await createModel("misplaced", "vllm/misplaced", { rank: 8, alpha: 16 });
    await addCheckpoint(model, 13);
    const res = await json(chat(`${user.username}/vllm/misplaced`));
    expect(res.status).toBe(503);
    expect(res.body.detail).toMatch(/^vLLM at 127\.0\.0\.1:\d+ could not load the adapter '.+' \(404: .*No adapter found.*\)\. Check that lora\.vllm_dir names lora\.write_dir's directory/);
  });
});

describe("upstream bases and LoRA", () => {
  it("a job of a model whose rank is above the base's max_rank is refused, naming the limit", async () => {
    const examples = [{ messages: [{ role: "user", content: "a" }, { role: "assistant", content: "b" }] }];
    const wide = await createModel("wide", "vllm/tiny", { rank: 32 });
    const refused = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: wide.id, training_data: examples } }));
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(
      "This model's LoRA rank is 32; its base 'vllm/tiny' is served by vLLM with adapters up to rank 16 (lora.max_rank in the models file, vLLM's --max-lora-rank). Train a model whose rank is at most 16.",
    );
    const fits = await createModel("fits", "vllm/tiny", { rank: 16 });
    const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: fits.id, training_data: examples } }));
    expect(JSON.stringify(res.body)).not.toContain("max_rank");
  });

  it("a base without a `lora` block serves its models' step 0 but refuses their checkpoints, saying why", async () => {
    const model = await createModel("plain", "vllm/plain", { rank: 8, alpha: 16 });
    vllm.calls.length = 0;
    const base = await json(chat(`${user.username}/vllm/plain`));
    expect(base.status, JSON.stringify(base.body)).toBe(200);
    expect(chatModels()).toEqual([HF_NAME]);
    await addCheckpoint(model, 14);
    const res = await json(chat(`${user.username}/vllm/plain`));
    expect(res.status).toBe(501);
    expect(res.body.detail).toBe(
      "Checkpoints of the upstream base model 'vllm/plain' cannot be served: its models-file entry has no `lora` block (vLLM serving adapters: docs/operations.md, \"GPU topology\").",
    );
  });

  it("an upstream entry with `lora` and no `gguf` is refused when the file is read", async () => {
    const listing = process.env.ANNEAL_MODELS_FILE!;
    const entries = JSON.parse(fs.readFileSync(listing, "utf8"));
    const original = JSON.stringify(entries);
    try {
      fs.writeFileSync(listing, JSON.stringify([...entries, { name: "vllm/shapeless", upstream: `${vllm.url}/v1`, lora: { write_dir: writeDir, vllm_dir: VLLM_DIR, max_loras: 1, max_rank: 16 } }]));
      const res = await json(api("GET", "/v1/models", { bearer: user.key }));
      expect(res.status).toBe(503);
      expect(res.body.detail).toBe("ANNEAL_MODELS_FILE: vllm/shapeless has `lora` but no `gguf`: an upstream entry with `lora` needs a GGUF of the same weights, for the adapters' shapes.");
    } finally {
      fs.writeFileSync(listing, original);
    }
  });
});

describe("an upstream base trained by remote workers", () => {
  it("its LoRA jobs are left to remote workers, probed against its GGUF, and the checkpoint a worker uploads is served by vLLM", async () => {
    const model = await createModel("trained", TRAINABLE_HF_NAME, { rank: 8, alpha: 16, target_modules: ["q_proj", "v_proj", "up_proj"] });
    const examples = Array.from({ length: 2 }, (_, i) => ({ messages: [{ role: "user", content: `say ${i}` }, { role: "assistant", content: `ok ${i}` }] }));
    const queued = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data: examples } }));
    expect(queued.status, JSON.stringify(queued.body)).toBe(200);
    const job = jobSchema.parse(queued.body);

    // The embedded runner, live and polling, does not take it: it trains the GGUFs it serves.
    const runner = new TrainingRunner({ kind: "embedded", leaseMs: 30_000, heartbeatMs: 1_000, stallMs: 60_000, pollMs: 50, maxAttempts: 3, concurrency: 1 });
    await runner.start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await runner.stop(0);
    expect(await getJob(user.key, job.id)).toMatchObject({ status: "queued", waiting_for: `a worker with base ${TRAINABLE_HF_NAME} (no live worker offers it)` });

    const worker = await createTestWorkerKey();
    const call = (method: string, url: string, body?: unknown) => json(api(method, url, { bearer: worker.key, body }));
    const capabilities = { kinds: ["sft"], modes: ["lora"], bases: [TRAINABLE_HF_NAME], max_rank: 16 };
    const asked = await call("POST", "/v1/workers/lease", { instance: "gpu-0", version: 1, capabilities });
    expect(asked.body.probe, JSON.stringify(asked.body)).toMatchObject({ base: TRAINABLE_HF_NAME });
    const probed = await call("POST", "/v1/workers/probe", { instance: "gpu-0", base: TRAINABLE_HF_NAME, logprobs: probeLogprobs(fixture.files.model, asked.body.probe.ids) });
    expect(probed.body).toMatchObject({ passed: true, checked: true });
    const leased = await call("POST", "/v1/workers/lease", { instance: "gpu-0", version: 1, capabilities });
    expect(leased.body.lease, JSON.stringify(leased.body)).toMatchObject({ job_id: job.id, mode: "lora" });
    const onLease = (suffix: string) => `/v1/workers/leases/${leased.body.lease.token}/${suffix}`;
    const inputs = await call("GET", onLease("inputs"));
    expect(inputs.status, JSON.stringify(inputs.body)).toBe(200);
    expect(inputs.body.sft.rows.length).toBeGreaterThanOrEqual(2); // tokenized by the base's GGUF

    const adapters = randomLora(fixture.files.config, 21, 8);
    const zip = writePeftZip({ config: fixture.files.config, adapters, alpha: 16, dropout: 0, baseModelName: TRAINABLE_HF_NAME });
    const created = await call("POST", onLease("uploads"), { purpose: "checkpoint", bytes: zip.length, sha256: createHash("sha256").update(zip).digest("hex") });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const put = await json(api("PUT", onLease(`uploads/${created.body.upload_id}`), {
      bearer: worker.key, rawBody: zip, headers: { "content-type": "application/octet-stream", "content-range": `bytes 0-${zip.length - 1}/${zip.length}` },
    }));
    expect(put.body).toEqual({ received: zip.length });
    const done = await call("POST", onLease("complete"), { upload_id: created.body.upload_id, metrics: { "train/loss": 1 } });
    expect(done.body, JSON.stringify(done.body)).toEqual({ checkpoint_step: 1 });
    // Anneal's engine does not run an upstream base: the job says its guard rails did not run, and why.
    expect(await getJob(user.key, job.id)).toMatchObject({
      status: "succeeded", sample_replies: [],
      warnings: [{ code: "guard_rails_not_run", message: expect.stringContaining("the base 'vllm/trainable' is served by an upstream server") }],
    });

    vllm.calls.length = 0;
    const res = await json(chat(`${user.username}/vllm/trained`));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [load] = callsTo("load_lora_adapter");
    expect(load?.body?.lora_name).toMatch(new RegExp(`^${user.username}-vllm-trained-s1-[0-9a-f]{8}$`));
    expect(chatModels()).toEqual([load?.body?.lora_name]);
  });
});
