// The Python worker's side of the protocol against Anneal's route handlers (behind a real socket):
// its client, lease progress and job code (workers/python/tests/drive_lease.py) train Anneal's own
// SFT and RL inputs step by step on a small torch stand-in model, posting each step's event, commit a
// state uploaded in chunks, release, get a 409 on the stale token and read the state back from the
// next lease's resume point; its bundle code (drive_bundle.py) runs a job.tar into a result.tar that
// Anneal imports. transformers + PEFT are tested in workers/python; this needs
// /usr/bin/python3 with torch, and says it skipped otherwise.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { readPackedBase } from "@/lib/engine/gguf/llama-gguf";
import { loraShapes, loraSites, LORA_TARGETS, type LoraAdapter } from "@/lib/engine/model/lora";
import { writePeftZip } from "@/lib/engine/peft/peft-adapter";
import { TINY_CHAT_2 } from "@/lib/inference/base-models";
import { probeIdsOf, resolveOfferedBase } from "@/lib/workers/base-probe";
import { probeLogprobs } from "@/lib/workers/probe";
import { useTempDataDir } from "./data-dir";
import { createTestUser, createTestWorkerKey, type TestUser } from "./factories";
import { api, json } from "./http";
import { serveApp } from "./http-server";
import { allEvents, getJob } from "./training-api";

const PYTHON = "/usr/bin/python3";
const hasTorch = spawnSync(PYTHON, ["-c", "import torch"], { stdio: "ignore" }).status === 0;
const driverOf = (name: string) => path.resolve(import.meta.dirname, `../workers/python/tests/${name}`);

useTempDataDir("python-worker-client");
let server: { url: string; close(): Promise<void> };
let user: TestUser;

beforeAll(async () => {
  Object.assign(process.env, { ANNEAL_TRAINING_CONCURRENCY: "0" });
  resetEnvCache();
  server = await serveApp();
  user = await createTestUser();
});
afterAll(async () => {
  await server?.close();
  delete process.env.ANNEAL_TRAINING_CONCURRENCY;
  resetEnvCache();
});

/** A driver in a child process (the server answers in this one's event loop meanwhile). */
function drive(driver: string, input: unknown): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(PYTHON, [driverOf(driver)], { stdio: ["pipe", "pipe", "pipe"] });
    let [stdout, stderr] = ["", ""];
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify(input));
  });
}

async function post(route: string, body: unknown) {
  const res = await json(api("POST", route, { bearer: user.key, body }));
  expect(res.status, `${route}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}
const examples = [1, 2, 3].map((i) => ({ messages: [{ role: "user", content: `say ${i}` }, { role: "assistant", content: `ok ${i}` }] }));

/** A rank-8 PEFT zip that fits TINY_CHAT_2 (Anneal's own export of a small constant adapter). */
function peftZip(): Uint8Array {
  const { config } = readPackedBase(TINY_CHAT_2.gguf);
  const adapters: Record<string, LoraAdapter> = {};
  for (const { weight } of loraSites(config, { rank: 8, alpha: 16, dropout: 0, targets: LORA_TARGETS })) {
    const { a, b } = loraShapes(config, weight, 8);
    adapters[weight] = { a: new Float32Array(a[0] * a[1]).fill(0.01), b: new Float32Array(b[0] * b[1]).fill(0.02), rank: 8 };
  }
  return writePeftZip({ config, adapters, alpha: 16, dropout: 0, baseModelName: TINY_CHAT_2.name });
}

const SFT_STEP_KEYS = ["step", "loss", "grad_norm", "learning_rate", "num_trajectories", "num_trainable_tokens"];
const RL_STEP_KEYS = [...SFT_STEP_KEYS, "policy_loss", "entropy", "mean_ratio", "reward", "reward_std_dev", "num_groups_submitted", "num_groups_trainable"];

describe.skipIf(!hasTorch)(`the Python worker's client (${hasTorch ? "" : `skipped: ${PYTHON} cannot import torch`})`, () => {
  it("trains Anneal's SFT and RL inputs step by step, commits a chunked state, releases, is refused on the stale token, resumes", { timeout: 180_000 }, async () => {
    const model = await post("/v1/preview/models", { project: "py", name: "py-client", base_model: TINY_CHAT_2.name, lora: { rank: 8 } });
    const sft = await post("/v1/preview/sft-training-jobs", { model_id: model.id, training_data: examples, config: { batch_size: 1 } });
    const groups = [];
    for (const prompt of ["say 1", "say 2"]) {
      const answer = await post("/v1/chat/completions", { model: `${model.entity}/${model.project}/${model.name}`, messages: [{ role: "user", content: prompt }], n: 4, max_tokens: 6, temperature: 1, logprobs: true });
      groups.push({ trajectories: answer.choices.map((choice: unknown, i: number) => ({ messages_and_choices: [{ role: "user", content: prompt }, choice], reward: i % 2 })) });
    }
    const rl = await post("/v1/preview/training-jobs", { model_id: model.id, trajectory_groups: groups });
    const base = await resolveOfferedBase(TINY_CHAT_2.name);
    if (base?.kind !== "gguf") throw new Error(`${TINY_CHAT_2.name} has no GGUF here`);
    // The logprobs Anneal's own forward gives: this tests the worker's side of the protocol, not a model.
    const probe = probeLogprobs(base.gguf, await probeIdsOf(base));

    const { key } = await createTestWorkerKey();
    const run = await drive("drive_lease.py", { server: server.url, key, base: TINY_CHAT_2.name, probe_logprobs: probe });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({
      sft: { kind: "sft" }, rl: { kind: "rl" }, cancel_requested: false, released: "queued", stale: "lease lost",
      same_job: true, resume_step: 1, resume_format: "anneal-torch-peft-1", state_round_trip: true, sft_cancelled: "cancelled", rl_cancelled: "cancelled",
    });
    expect(result.sft.metrics).toMatchObject({ "train/num_examples": 3, "train/epochs": 1 });

    for (const [id, keys] of [[sft.id, SFT_STEP_KEYS], [rl.id, RL_STEP_KEYS]] as const) {
      const job = await getJob(user.key, id);
      expect(job.status).toBe("cancelled");
      const steps = (await allEvents(user.key, id)).filter((e) => e.type === "gradient_step").map((e) => e.data);
      expect(steps.map((s) => s.step)).toEqual(Array.from({ length: job.num_sequences! }, (_, i) => i + 1));
      for (const s of steps) expect(Object.keys(s)).toEqual(expect.arrayContaining(keys));
    }
    expect(await getDb().trainingJob.findUniqueOrThrow({ where: { id: sft.id }, select: { resumeStep: true, resumeFormat: true } }))
      .toEqual({ resumeStep: 1, resumeFormat: "anneal-torch-peft-1" });
  });
  it("runs a job bundle: job.tar read, its inputs trained, result.tar written and imported (events, then the checkpoint)", { timeout: 120_000 }, async () => {
    const model = await post("/v1/preview/models", { project: "py", name: "py-bundle", base_model: TINY_CHAT_2.name, lora: { rank: 8, alpha: 16 } });
    const imported = await json(api("POST", `/v1/preview/models/${model.id}/checkpoints`, { bearer: user.key, body: peftZip(), headers: { "content-type": "application/zip" } }));
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const sft = await post("/v1/preview/sft-training-jobs", { model_id: model.id, training_data: examples, config: { batch_size: 1 } });
    const bundle = await api("POST", `/v1/preview/training-jobs/${sft.id}/bundle`, { bearer: user.key, body: { lease_hours: 1 } });
    expect(bundle.status).toBe(200);
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-python-bundle-"));
    try {
      const [jobTar, resultTar] = [path.join(scratch, "job.tar"), path.join(scratch, "result.tar")];
      fs.writeFileSync(jobTar, new Uint8Array(await bundle.arrayBuffer()));
      const run = await drive("drive_bundle.py", { job_tar: jobTar, result_tar: resultTar });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ steps: 3, start_adapter: "start-adapter.zip" });
      const done = await json(api("POST", `/v1/preview/training-jobs/${sft.id}/bundle-result`, { bearer: user.key, rawBody: fs.readFileSync(resultTar), headers: { "content-type": "application/x-tar" } }));
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body).toEqual({ checkpoint_step: 2 });
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
    const job = await getJob(user.key, sft.id);
    expect(job).toMatchObject({ status: "succeeded", steps_done: 3, checkpoint_step: 2 });
    // Anneal ran the guard rails on the imported result, from the adapter the bundle started from: replies
    // to the job's 3 prompts (no validation examples) before and after.
    expect(job.sample_replies.map((s) => [s.prompt, s.held_out])).toEqual(examples.map((e) => [e.messages[0].content, false]));
    expect(job.warnings.map((w) => w.code)).not.toContain("guard_rails_not_run");
    const steps = (await allEvents(user.key, sft.id)).filter((e) => e.type === "gradient_step").map((e) => e.data);
    expect(steps.map((s) => s.step)).toEqual([1, 2, 3]);
    for (const s of steps) expect(Object.keys(s)).toEqual(expect.arrayContaining(SFT_STEP_KEYS));
  });
});
