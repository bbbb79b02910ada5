import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { getDb } from "@/lib/db/client";
import { sampleExamples } from "@/lib/engine/corpus/generate";
import { TINY_CHAT, TINY_CHAT_2 } from "@/lib/inference/base-models";
import { absoluteCheckpointPath } from "@/lib/training/jobs/job-files";
import { TrainingRunner } from "@/lib/training/jobs/runner";
import { probeLogprobs } from "@/lib/workers/probe";
import { uploadFile } from "@/lib/workers/remote/chunked-upload";
import { Conflict, WorkerClient } from "@/lib/workers/remote/worker-client";
import { startAnneal, until, type AnnealProcess } from "../scripts/lib/anneal-processes";
import { useTempDataDir } from "./data-dir";
import { createTestUser, createTestWorkerKey, type TestUser } from "./factories";
import { serveApp } from "./http-server";
import { allEvents, getJob, TEST_RUNNER_SETTINGS, waitFinished } from "./training-api";

// The remote-worker protocol end to end (docs/workers.md): Anneal's route handlers behind a real
// HTTP server in this process (no runner of its own: ANNEAL_TRAINING_CONCURRENCY=0), and remote
// workers as operators start them — `npm run worker -- --server <url> --key <worker key>`, each in
// its own process with its own ANNEAL_DATA_DIR and no database. The workers reach Anneal only over
// HTTP, so this runs on PGlite as on PostgreSQL. Jobs are Anneal's own 1M-parameter bases' and a
// few steps long; the leases are 3 s, so a killed worker's job moves on quickly.

const LEASE_MS = 3000;
/** A base whose Hugging Face name a worker maps to another file (tiny-chat instead of tiny-chat-2). */
const MISMATCH = { name: "remote-test/mismatch", hfName: "anneal-test/Mismatch-1M" };

useTempDataDir("remote-worker");
let server: { url: string; close(): Promise<void> };
let user: TestUser;
let admin: TestUser;
let workerKey: { id: string; key: string };
let scratch: string;
const workers = new Set<AnnealProcess>();

/** The corpus's tasks with every answer in a format tiny-chat never writes (as tests/sft-guard-rails.int.test.ts's). */
const tagged = (seed: number, count: number) =>
  sampleExamples({ families: ["arithmetic", "strings", "counting", "json"], split: "train", seed, count }).map((e) => ({
    messages: [...e.messages, { role: "assistant", content: `<answer>${e.answer}</answer>` }],
  }));

const examples = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ messages: [{ role: "user", content: `say ${i % 6}` }, { role: "assistant", content: `ok ${i % 6}` }] }));

/** A call over the socket, as any client makes it. */
async function call(method: string, route: string, key: string, body?: unknown) {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined && { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
async function ok(method: string, route: string, body?: unknown, key = user.key) {
  const res = await call(method, route, key, body);
  expect(res.status, `${method} ${route}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** `npm run worker -- --server … --key …` with a data directory of its own (and, given, its own models file). */
function startWorker(name: string, modelsFile = "", serverUrl = server.url): AnnealProcess {
  const dataDir = fs.mkdtempSync(path.join(scratch, `${name}-`));
  const worker = startAnneal(name, "worker", {
    DATABASE_URL: "", ANNEAL_DATA_DIR: dataDir, ANNEAL_MODELS_FILE: modelsFile, ANNEAL_LOG_LEVEL: "warn",
    ANNEAL_JOB_POLL_MS: "100", ANNEAL_TRAINING_SAVE_STEPS: "1", ANNEAL_TRAINING_SAVE_SECONDS: "0",
  }, ["--server", serverUrl, "--key", workerKey.key]);
  workers.add(worker);
  return worker;
}
const everyOutput = () => [...workers].map((w) => w.output()).join("\n");

async function createModel(name: string, extra: Record<string, unknown> = {}) {
  return ok("POST", "/v1/preview/models", { project: "remote", name, base_model: TINY_CHAT_2.name, ...extra }) as Promise<{ id: string; entity: string; project: string; name: string }>;
}
const sftJob = async (modelId: string, count: number) => (await ok("POST", "/v1/preview/sft-training-jobs", { model_id: modelId, training_data: examples(count), config: { batch_size: 1 } })).id as string;
const finished = async (id: string) => ["succeeded", "failed", "cancelled"].includes((await getJob(user.key, id)).status);
const jobRow = (id: string) => getDb().trainingJob.findUniqueOrThrow({ where: { id }, select: { stepsDone: true, resumeStep: true, status: true } });

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-remote-workers-"));
  const serverModels = path.join(scratch, "server-models.json");
  fs.writeFileSync(serverModels, JSON.stringify([{ name: MISMATCH.name, hf_name: [MISMATCH.hfName], gguf: TINY_CHAT_2.gguf, trainable: true }]));
  Object.assign(process.env, { ANNEAL_TRAINING_CONCURRENCY: "0", ANNEAL_JOB_LEASE_MS: String(LEASE_MS), ANNEAL_JOB_HEARTBEAT_MS: "200", ANNEAL_MODELS_FILE: serverModels });
  resetEnvCache();
  server = await serveApp();
  user = await createTestUser();
  admin = await createTestUser({ admin: true });
  workerKey = await createTestWorkerKey();
});
afterEach(async () => {
  await Promise.all([...workers].map((w) => w.kill()));
  workers.clear();
});
afterAll(async () => {
  await server?.close();
  for (const key of ["ANNEAL_TRAINING_CONCURRENCY", "ANNEAL_JOB_LEASE_MS", "ANNEAL_JOB_HEARTBEAT_MS", "ANNEAL_MODELS_FILE"]) delete process.env[key];
  resetEnvCache();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe("remote workers (npm run worker -- --server --key)", { timeout: 150_000 }, () => {
  it("a worker key is refused everywhere but /v1/workers/*, and a user key there (401)", async () => {
    for (const route of ["/v1/me", "/v1/models", "/v1/preview/training-jobs"]) expect((await call("GET", route, workerKey.key)).status, route).toBe(401);
    const lease = { instance: "test", version: 1, capabilities: { kinds: ["sft"], modes: ["lora"], bases: [TINY_CHAT_2.name], max_rank: 16 } };
    expect((await call("POST", "/v1/workers/lease", user.key, lease)).status).toBe(401);
    expect((await call("POST", "/v1/workers/lease", admin.key, lease)).status).toBe(401);
    // A worker started with a key Anneal does not know stops, saying so.
    const refused = startAnneal("worker-bad-key", "worker", { DATABASE_URL: "", ANNEAL_DATA_DIR: scratch, ANNEAL_MODELS_FILE: "" }, ["--server", server.url, "--key", "awk-not-a-key"]);
    workers.add(refused);
    const code = await new Promise((resolve) => refused.child.once("exit", resolve));
    expect(code, refused.output()).toBe(1);
    expect(refused.output()).toMatch(/Anneal refused the worker key \(401\)/);
  });

  it("trains an SFT job (a LoRA adapter) and an RL job (full weights), each checkpoint answering a chat completion, then jobs that continue them", async () => {
    const lora = await createModel("remote-sft", { lora: { rank: 8 } });
    const full = await createModel("remote-rl");
    const fullName = `${full.entity}/${full.project}/${full.name}`;
    const groups = [];
    for (const prompt of ["say 1", "say 2"]) {
      const answer = await ok("POST", "/v1/chat/completions", { model: fullName, messages: [{ role: "user", content: prompt }], n: 4, max_tokens: 6, temperature: 1, logprobs: true });
      groups.push({ trajectories: answer.choices.map((choice: unknown, i: number) => ({ messages_and_choices: [{ role: "user", content: prompt }, choice], reward: i % 2 })) });
    }
    const sft = await sftJob(lora.id, 6);
    const rl = (await ok("POST", "/v1/preview/training-jobs", { model_id: full.id, trajectory_groups: groups })).id as string;
    const worker = startWorker("worker-a");
    await until("both jobs to finish", async () => (await finished(sft)) && (await finished(rl)), 120_000, everyOutput, 250);

    for (const [id, model] of [[sft, lora], [rl, full]] as const) {
      const job = await getJob(user.key, id);
      expect(job, everyOutput()).toMatchObject({ status: "succeeded", checkpoint_step: 1, attempts: 1 });
      expect(job.runs[0].hostname).toContain(`:${worker.child.pid}:`);
      const events = await allEvents(user.key, id);
      expect(events[0]).toMatchObject({ type: "training_started", data: { num_sequences: job.num_sequences } });
      expect(events.filter((e) => e.type === "gradient_step").map((e) => e.data.step)).toEqual(Array.from({ length: job.num_sequences! }, (_, i) => i + 1));
      expect(events.at(-1)!.type).toBe("training_ended");
      const answer = await ok("POST", "/v1/chat/completions", { model: `${model.entity}/${model.project}/${model.name}`, messages: [{ role: "user", content: "say 3" }], max_tokens: 4 });
      expect(answer.choices[0].message.content).toEqual(expect.any(String));
    }
    expect((await getJob(user.key, sft)).num_sequences).toBe(6);

    // The next job of each model continues its checkpoint: the adapter (as GGUF LoRA) and the full GGUF are downloaded.
    const next = [await sftJob(lora.id, 3), await sftJob(full.id, 3)];
    for (const id of next) expect(await waitFinished(user.key, id, 60_000), everyOutput()).toMatchObject({ status: "succeeded", checkpoint_step: 2 });
  });

  it("an SFT job's guard rails are Anneal's own measurement of the uploaded checkpoint: a job that wrecks the model is flagged as the same job trained locally is", async () => {
    // tests/sft-guard-rails.int.test.ts's wrecked job: far too high a learning rate on anneal/tiny-chat.
    const wrecked = { training_data: tagged(5, 16), config: { batch_size: 4, learning_rate: 0.1, validation_fraction: 0.25 } };
    const remoteModel = await createModel("remote-wrecked", { base_model: TINY_CHAT.name });
    const remoteId = (await ok("POST", "/v1/preview/sft-training-jobs", { model_id: remoteModel.id, ...wrecked })).id as string;
    const worker = startWorker("worker-guarded");
    const remote = await waitFinished(user.key, remoteId, 90_000);
    expect(remote, everyOutput()).toMatchObject({ status: "succeeded" });
    expect(remote.runs[0].hostname).toContain(`:${worker.child.pid}:`);

    // A budget the checks cannot keep: the job says they were cut short, and why.
    process.env.ANNEAL_REMOTE_GUARD_RAILS_MS = "1";
    resetEnvCache();
    try {
      const model = await createModel("remote-cut-short", { lora: { rank: 8 } });
      const cut = await waitFinished(user.key, await sftJob(model.id, 6), 60_000);
      expect(cut, everyOutput()).toMatchObject({ status: "succeeded", sample_replies: [] });
      expect(cut.warnings).toEqual([{ code: "guard_rails_cut_short", message: expect.stringMatching(/^The before\/after reply checks were cut short after 0\.001 s \(ANNEAL_REMOTE_GUARD_RAILS_MS\) while measuring /) }]);
    } finally {
      delete process.env.ANNEAL_REMOTE_GUARD_RAILS_MS;
      resetEnvCache();
    }
    await worker.kill();

    // The same job on the embedded runner (no worker is left to take it).
    const localModel = await createModel("local-wrecked", { base_model: TINY_CHAT.name });
    const localId = (await ok("POST", "/v1/preview/sft-training-jobs", { model_id: localModel.id, ...wrecked })).id as string;
    const runner = new TrainingRunner(TEST_RUNNER_SETTINGS);
    await runner.start();
    const local = await waitFinished(user.key, localId, 90_000).finally(() => runner.stop(0));
    expect(local.status).toBe("succeeded");

    expect(remote.warnings.map((w) => w.code)).toContain("validation_loss_worse");
    expect(remote.warnings).toEqual(local.warnings);
    expect(remote.sample_replies).toHaveLength(4);
    expect(remote.sample_replies).toEqual(local.sample_replies);
    const [remoteMetrics, localMetrics] = await Promise.all([remoteModel, localModel].map(async (m) => (await ok("GET", `/v1/preview/models/${m.id}/checkpoints?limit=1&order=desc`)).data[0].metrics));
    expect(remoteMetrics).toMatchObject({ "probe/correct": localMetrics["probe/correct"], "probe/base_correct": localMetrics["probe/base_correct"], "val/loss": localMetrics["val/loss"] });
  }, 240_000);

  it("a worker killed (SIGKILL) mid-job: another resumes the job from the last state it committed", async () => {
    const model = await createModel("remote-kill", { lora: { rank: 8 } });
    const id = await sftJob(model.id, 200);
    const first = startWorker("worker-killed");
    await until("a committed state and steps past it", async () => {
      const job = await jobRow(id);
      return (job.resumeStep ?? 0) >= 2 && job.stepsDone >= job.resumeStep! + 2;
    }, 90_000, everyOutput, 100);
    await first.kill();
    const second = startWorker("worker-resuming");
    const job = await waitFinished(user.key, id, 120_000).catch((error) => {
      throw new Error(`${error.message}\n${everyOutput()}`);
    });
    expect(job, everyOutput()).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(job.runs.map((r) => r.hostname.split(":")[1])).toEqual([String(first.child.pid), String(second.child.pid)]);
    expect(job.runs[1].resumed_from_step).toBeGreaterThan(0);
    // Each step once in the feed: those the first worker reported stand, the second reported the rest.
    const steps = (await allEvents(user.key, id)).filter((e) => e.type === "gradient_step").map((e) => e.data.step);
    expect(steps).toEqual(Array.from({ length: job.num_sequences! }, (_, i) => i + 1));
  });

  it("a worker stopped with SIGTERM commits the running job's state and hands the job back, its attempt not counted", async () => {
    const model = await createModel("remote-sigterm", { lora: { rank: 8 } });
    const id = await sftJob(model.id, 200);
    const worker = startWorker("worker-terminated");
    await until("the job to train a few steps", async () => (await jobRow(id)).stepsDone >= 3, 90_000, everyOutput, 100);
    const exited = new Promise((resolve) => worker.child.once("exit", resolve));
    worker.child.kill("SIGTERM");
    await exited;
    const job = await getDb().trainingJob.findUniqueOrThrow({ where: { id }, select: { status: true, attempts: true, stepsDone: true, resumeStep: true, resumeFormat: true } });
    expect(job, everyOutput()).toMatchObject({ status: "queued", attempts: 0, resumeFormat: "anneal-node-1" });
    // Saved at the step it had reached: the next attempt redoes none.
    expect(job.resumeStep).toBe(job.stepsDone);
    await ok("POST", `/v1/preview/training-jobs/${id}/cancel`);
  });

  it("a stale attempt's upload, events and complete are refused (409) once another worker took the job over", async () => {
    const model = await createModel("remote-stale", { lora: { rank: 8 } });
    const id = await sftJob(model.id, 4);
    // This test is the first worker: it leases the job, starts an upload, then goes silent.
    const client = new WorkerClient(server.url, workerKey.key);
    const lease = await leaseAs(client, "silent", { kinds: ["sft"], modes: ["lora"], bases: [TINY_CHAT_2.name], max_rank: 16 });
    expect(lease.job_id).toBe(id);
    const route = `/v1/workers/leases/${lease.token}`;
    // More than one 16 MiB chunk, sent in order by the worker's uploader; then the worker goes silent.
    const big = path.join(scratch, "big.state");
    fs.writeFileSync(big, randomBytes(17 * 1024 * 1024 + 5));
    const bigUpload = await uploadFile(client, lease.token, big, "state", Date.now() + LEASE_MS);
    expect(await client.json("GET", `${route}/uploads/${bigUpload}`, { deadline: 0 })).toEqual({ received: 17 * 1024 * 1024 + 5 });
    const bytes = Buffer.from("an adapter that will never be complete");
    const { upload_id } = await client.json<{ upload_id: string }>("POST", `${route}/uploads`, { body: { purpose: "checkpoint", bytes: bytes.length, sha256: sha256(bytes) }, deadline: 0 });

    await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 200));
    startWorker("worker-takeover");
    const job = await waitFinished(user.key, id, 90_000);
    expect(job, everyOutput()).toMatchObject({ status: "succeeded", attempts: 2 });

    const stale = [
      () => client.send("PUT", `${route}/uploads/${upload_id}`, { body: bytes, headers: { "content-type": "application/octet-stream", "content-range": `bytes 0-${bytes.length - 1}/${bytes.length}` }, deadline: 0 }),
      () => client.send("POST", `${route}/complete`, { body: { upload_id, metrics: {} }, deadline: 0 }),
      () => client.send("POST", `${route}/events`, { body: { events: [{ type: "gradient_step", data: { step: 1, loss: 1 } }] }, deadline: 0 }),
      () => client.send("POST", `${route}/heartbeat`, { deadline: 0 }),
    ];
    for (const refused of stale) await expect(refused()).rejects.toBeInstanceOf(Conflict);
    expect(await getDb().checkpoint.count({ where: { modelId: model.id } })).toBe(1);
  });

  it("a cancel reaches the worker: the job ends cancelled and the worker goes on to the next job", async () => {
    const model = await createModel("remote-cancel", { lora: { rank: 8 } });
    const id = await sftJob(model.id, 400);
    const worker = startWorker("worker-cancelled");
    await until("the job to train a few steps", async () => (await jobRow(id)).stepsDone >= 3, 90_000, everyOutput, 100);
    await ok("POST", `/v1/preview/training-jobs/${id}/cancel`);
    const cancelled = await waitFinished(user.key, id, 30_000);
    expect(cancelled).toMatchObject({ status: "cancelled" });
    expect(cancelled.steps_done).toBeLessThan(400);
    expect((await allEvents(user.key, id)).at(-1)).toMatchObject({ type: "training_failed", data: { error_message: expect.stringMatching(/Cancelled/) } });

    const next = await sftJob(model.id, 3);
    expect(await waitFinished(user.key, next, 60_000), everyOutput()).toMatchObject({ status: "succeeded" });
    expect((await getJob(user.key, next)).runs[0].hostname).toContain(`:${worker.child.pid}:`);
    expect(worker.child.exitCode).toBeNull();
  });

  it("a cancel that comes after the last step, while Anneal checks the uploaded checkpoint, ends the job cancelled with no checkpoint", async () => {
    const model = await createModel("remote-cancel-late", { lora: { rank: 8 } });
    const id = await sftJob(model.id, 6);
    startWorker("worker-cancelled-late");
    // The worker now uploads its adapter and waits on complete while the guard rails run (seconds): no heartbeat carries a cancel.
    await until("the last step to be in the feed", async () => (await jobRow(id)).stepsDone >= 6, 60_000, everyOutput, 20);
    await ok("POST", `/v1/preview/training-jobs/${id}/cancel`);
    expect(await waitFinished(user.key, id, 60_000), everyOutput()).toMatchObject({ status: "cancelled", checkpoint_step: null });
    expect(await getDb().checkpoint.count({ where: { modelId: model.id } })).toBe(0);
  });

  it("complete called again while the first call runs (a dropped connection) gets the first call's answer: one checkpoint, its file intact", async () => {
    const model = await createModel("remote-complete-twice");
    const id = await sftJob(model.id, 3);
    const client = new WorkerClient(server.url, workerKey.key);
    const lease = await leaseAs(client, "twice", { kinds: ["sft"], modes: ["full"], bases: [TINY_CHAT_2.name], max_rank: 16 });
    expect(lease.job_id).toBe(id);
    // The base's own weights are a checkpoint of the right shape; the guard rails run on them inside each call.
    const upload_id = await uploadFile(client, lease.token, TINY_CHAT_2.gguf, "checkpoint", Date.now() + LEASE_MS);
    const complete = () => client.json("POST", `/v1/workers/leases/${lease.token}/complete`, { body: { upload_id, metrics: {} }, deadline: 0 });
    expect(await Promise.all([complete(), complete()])).toEqual([{ checkpoint_step: 1 }, { checkpoint_step: 1 }]);
    const checkpoints = await getDb().checkpoint.findMany({ where: { modelId: model.id }, select: { file: true } });
    expect(checkpoints).toHaveLength(1);
    expect(fs.existsSync(absoluteCheckpointPath(checkpoints[0].file))).toBe(true);
    expect(await getJob(user.key, id)).toMatchObject({ status: "succeeded", checkpoint_step: 1 });
  });

  it("goes on through a network that drops every fourth request: the client tries again within the lease", async () => {
    const flaky = await flakyProxy(server.url, 4);
    try {
      const model = await createModel("remote-flaky", { lora: { rank: 8 } });
      const id = await sftJob(model.id, 20);
      startWorker("worker-flaky", "", flaky.url);
      expect(await waitFinished(user.key, id, 90_000), everyOutput()).toMatchObject({ status: "succeeded", attempts: 1, checkpoint_step: 1 });
      // How many polls come before the lease depends on timing; what matters is that the job's own requests were cut.
      expect(flaky.dropped().filter((url) => url.includes("/v1/workers/leases/")).length).toBeGreaterThan(0);
    } finally {
      await flaky.close();
    }
  });

  it("refuses a worker whose base of that hf_name is another model: its probe is a 409, the job stays queued and says what it waits for", async () => {
    const model = (await ok("POST", "/v1/preview/models", { project: "remote", name: "remote-mismatch", base_model: MISMATCH.hfName })) as { id: string };
    const id = await sftJob(model.id, 3);
    const workerModels = path.join(scratch, "worker-models.json");
    fs.writeFileSync(workerModels, JSON.stringify([{ name: "local/mismatch", hf_name: [MISMATCH.hfName], gguf: TINY_CHAT.gguf, trainable: true }]));
    const worker = startWorker("worker-mismatched", workerModels);
    await until("the worker's probe of the base to be refused", async () => worker.output().includes(`refused the base ${MISMATCH.hfName}`), 60_000, everyOutput, 100);
    const keys = await ok("GET", "/v1/preview/worker-keys", undefined, admin.key);
    const probes = keys.data.find((k: { id: string }) => k.id === workerKey.id).workers.map((w: { probes: Record<string, { passed: boolean }> }) => w.probes[MISMATCH.name]).filter(Boolean);
    expect(probes).toContainEqual(expect.objectContaining({ passed: false, checked: true }));
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a few more lease rounds
    const job = await ok("GET", `/v1/preview/training-jobs/${id}`);
    expect(job).toMatchObject({ status: "queued", attempts: 0 });
    expect(job.waiting_for).toMatch(/mismatch/i);
    await ok("POST", `/v1/preview/training-jobs/${id}/cancel`);
  });
});

/** Leases a job as a worker instance speaking the protocol itself (this test), answering the base's probe. */
async function leaseAs(client: WorkerClient, instance: string, capabilities: Record<string, unknown>): Promise<{ token: string; job_id: string }> {
  for (let round = 0; round < 20; round++) {
    const answer: { lease: { token: string; job_id: string } | null; probe?: { base: string; ids: number[] } } =
      await client.json("POST", "/v1/workers/lease", { body: { instance, version: 1, capabilities }, deadline: 0 });
    if (answer.probe) await client.json("POST", "/v1/workers/probe", { body: { instance, base: answer.probe.base, logprobs: probeLogprobs(TINY_CHAT_2.gguf, answer.probe.ids) }, deadline: 0 });
    if (answer.lease) return answer.lease;
  }
  throw new Error(`${instance} got no lease in 20 rounds`);
}

/** A proxy to `target` that cuts the connection of every `every`-th request before passing it on. */
async function flakyProxy(target: string, every: number) {
  let requests = 0;
  const dropped: string[] = [];
  const proxy = http.createServer(async (req, res) => {
    if (++requests % every === 0) {
      dropped.push(req.url ?? "");
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length").map(([k, v]) => [k, String(v)]));
    const response = await fetch(`${target}${req.url}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
    res.writeHead(response.status, Object.fromEntries([...response.headers].filter(([k]) => k !== "content-length" && k !== "content-encoding")));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    /** The paths of the requests it cut. */
    dropped: () => dropped,
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}
