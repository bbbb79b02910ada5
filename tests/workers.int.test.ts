import { createHash, randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { loraShapes, loraSites, LORA_TARGETS, type LoraAdapter } from "@/lib/engine/model/lora";
import { writePeftZip } from "@/lib/engine/peft/peft-adapter";
import { jobSchema } from "@/lib/training/jobs/schemas";
import { modelSchema } from "@/lib/training/models/schemas";
import { probeLogprobs } from "@/lib/workers/probe";
import { leaseAnswerSchema, workerKeyListSchema } from "@/lib/workers/schemas";
import { readTar, writeTar } from "@/lib/workers/tar";
import { useTempDataDir } from "./data-dir";
import { createTestUser, createTestWorkerKey, type TestUser } from "./factories";
import { api, json } from "./http";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";
import { getJob } from "./training-api";

// The remote-worker protocol's server side in-process (docs/workers.md): worker keys, which jobs a
// lease hands out, fencing of a stale attempt, chunked uploads, complete with a PEFT zip, the base
// probe and waiting_for. No runner runs here, so every job waits for a remote worker.

let fixture: InferenceFixture;
let user: TestUser;
let admin: TestUser;
let worker: { id: string; key: string };
useTempDataDir("workers");

const LORA = { rank: 8, alpha: 16, dropout: 0 };
const CAPABILITIES = { kinds: ["sft", "rl"], modes: ["lora"], bases: ["test/tiny"], max_rank: 64 };
const EXAMPLES = Array.from({ length: 4 }, (_, i) => ({ messages: [{ role: "user", content: `say ${i}` }, { role: "assistant", content: `ok ${i}` }] }));

beforeAll(async () => {
  fixture = installInferenceModels([], { tinyHfName: "anneal-test/Tiny-Chat" });
  [user, admin] = [await createTestUser(), await createTestUser({ admin: true })];
  worker = await createTestWorkerKey();
}, 60_000);
afterAll(() => fixture.remove());

let modelCount = 0;
async function queueSftJob(lora: unknown = LORA) {
  const model = modelSchema.parse((await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "workers", name: `m${++modelCount}`, base_model: "test/tiny", lora } }))).body);
  const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data: EXAMPLES, config: { batch_size: 2, epochs: 1 } } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { model, job: jobSchema.parse(res.body) };
}

const call = (key: string, method: string, url: string, body?: unknown, headers?: Record<string, string>) => json(api(method, url, { bearer: key, body, headers }));
const lease = (key: string, instance: string, capabilities: Record<string, unknown> = CAPABILITIES) =>
  call(key, "POST", "/v1/workers/lease", { instance, version: 1, capabilities });
const onLease = (token: string, suffix: string) => `/v1/workers/leases/${token}/${suffix}`;

/** Leases as a worker would: answers the probe it is asked first with its own forward of the base. */
async function leaseProbed(key: string, instance: string, capabilities: Record<string, unknown> = CAPABILITIES) {
  let res = await lease(key, instance, capabilities);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  while (res.body.probe) {
    const logprobs = probeLogprobs(fixture.files.model, res.body.probe.ids);
    const probed = await call(key, "POST", "/v1/workers/probe", { instance, base: res.body.probe.base, logprobs });
    expect(probed.status, JSON.stringify(probed.body)).toBe(200);
    res = await lease(key, instance, capabilities);
  }
  return leaseAnswerSchema.parse(res.body);
}

/** Drains the queue: every job any test left queued ends, so the next test's lease gets its own job. */
async function cancelQueued() {
  await getDb().trainingJob.updateMany({ where: { status: { in: ["queued", "running"] } }, data: { status: "cancelled", leaseOwner: null } });
}

function peftZipFor(rank = LORA.rank, alpha = LORA.alpha): Uint8Array {
  const config = fixture.files.config;
  const adapters: Record<string, LoraAdapter> = {};
  for (const { weight } of loraSites(config, { rank, alpha, dropout: 0, targets: LORA_TARGETS })) {
    const { a, b } = loraShapes(config, weight, rank);
    adapters[weight] = { a: new Float32Array(a[0] * a[1]).fill(0.01), b: new Float32Array(b[0] * b[1]).fill(0.02), rank };
  }
  return writePeftZip({ config, adapters, alpha, dropout: 0, baseModelName: "anneal-test/Tiny-Chat" });
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function upload(token: string, bytes: Uint8Array, purpose = "checkpoint", declared = sha256(bytes)) {
  const created = await call(worker.key, "POST", onLease(token, "uploads"), { purpose, bytes: bytes.length, sha256: declared });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.upload_id as string;
}

const putChunk = (token: string, id: string, bytes: Uint8Array, start: number, end: number) =>
  json(api("PUT", onLease(token, `uploads/${id}`), {
    bearer: worker.key, rawBody: bytes.subarray(start, end + 1),
    headers: { "content-type": "application/octet-stream", "content-range": `bytes ${start}-${end}/${bytes.length}` },
  }));

describe("worker keys", () => {
  it("an admin creates one (its secret once), lists it, and revokes it: its calls are 401 from then on", async () => {
    const created = await call(admin.key, "POST", "/v1/preview/worker-keys", { name: "gpu-pool", team: user.username });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: "gpu-pool", team: user.username, revoked_at: null, last_seen_at: null, workers: [] });
    expect(created.body.key).toMatch(/^awk-[0-9A-Za-z]{48}$/);
    expect((await lease(created.body.key, "k1", { ...CAPABILITIES, bases: [] })).status).toBe(200);
    const listed = workerKeyListSchema.parse((await call(admin.key, "GET", "/v1/preview/worker-keys")).body);
    const mine = listed.data.find((k) => k.id === created.body.id)!;
    expect(mine.workers.map((w) => w.instance)).toEqual(["k1"]);
    expect(mine.last_seen_at).toBe(mine.workers[0].last_seen_at);
    expect(JSON.stringify(listed)).not.toContain(created.body.key);
    expect((await call(user.key, "GET", "/v1/preview/worker-keys")).status).toBe(403);
    expect((await call(admin.key, "POST", "/v1/preview/worker-keys", { name: "x", team: "no-such-team" })).status).toBe(404);

    const revoked = await call(admin.key, "DELETE", `/v1/preview/worker-keys/${created.body.id}`);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect((await lease(created.body.key, "k1")).status).toBe(401);
  });

  it("a worker key is a 401 everywhere else, a user's key is a 401 on /v1/workers", async () => {
    expect((await call(worker.key, "GET", "/v1/preview/training-jobs")).status).toBe(401);
    expect((await call(worker.key, "GET", "/v1/me")).status).toBe(401);
    expect((await lease(user.key, "u")).status).toBe(401);
  });
});

describe("leasing", () => {
  it("hands a job only to a worker whose kinds, base, rank and key's team fit it", async () => {
    await cancelQueued();
    const { job } = await queueSftJob();
    const nothing = { lease: null, retry_after_ms: expect.any(Number) };
    expect((await leaseProbed(worker.key, "rl-only", { ...CAPABILITIES, kinds: ["rl"] }))).toEqual(nothing);
    expect((await leaseProbed(worker.key, "small-rank", { ...CAPABILITIES, max_rank: 4 }))).toEqual(nothing);
    expect((await leaseProbed(worker.key, "full-only", { ...CAPABILITIES, modes: ["full"] }))).toEqual(nothing);
    expect((await leaseProbed(worker.key, "other-base", { ...CAPABILITIES, bases: ["test/frozen"] }))).toEqual(nothing);
    const stranger = await createTestUser();
    const otherTeam = await createTestWorkerKey({ team: stranger.username });
    expect((await leaseProbed(otherTeam.key, "other-team"))).toEqual(nothing);

    const teamKey = await createTestWorkerKey({ team: user.username });
    const answer = await leaseProbed(teamKey.key, "by-hf-name", { ...CAPABILITIES, bases: ["anneal-test/Tiny-Chat"] });
    expect(answer.lease).toMatchObject({ job_id: job.id, attempt: 1, kind: "sft", mode: "lora", base: { name: "test/tiny", hf_name: "anneal-test/Tiny-Chat" } });
    const running = await getJob(user.key, job.id);
    expect(running).toMatchObject({ status: "running", runs: [{ attempt: 1, worker: "remote:by-hf-name" }] });
  });

  it("gives the inputs as token ids and writes training_started once; heartbeats and events renew and feed the job", async () => {
    await cancelQueued();
    const { job } = await queueSftJob();
    const { lease: held } = await leaseProbed(worker.key, "inputs");
    const token = held!.token;
    const inputs = await call(worker.key, "GET", onLease(token, "inputs"));
    expect(inputs.status, JSON.stringify(inputs.body)).toBe(200);
    expect(inputs.body).toMatchObject({ kind: "sft", mode: "lora", start: { adapter: null }, resume: null });
    expect(inputs.body.sft.rows[0].ids.length).toBeGreaterThan(0);
    const steps = inputs.body.sft.steps.length;
    expect((await getJob(user.key, job.id)).num_sequences).toBe(steps);

    expect((await call(worker.key, "POST", onLease(token, "heartbeat"))).body).toMatchObject({ cancel_requested: false });
    const events = [1, 2].map((step) => ({ type: "gradient_step", data: { step, loss: 2 - step / 10 } }));
    expect((await call(worker.key, "POST", onLease(token, "events"), { events })).body).toEqual({ cancel_requested: false, written: 2 });
    expect((await call(worker.key, "POST", onLease(token, "events"), { events })).body).toEqual({ cancel_requested: false, written: 0 });
    expect((await getJob(user.key, job.id)).steps_done).toBe(2);

    expect((await call(user.key, "POST", `/v1/preview/training-jobs/${job.id}/cancel`)).status).toBe(200);
    expect((await call(worker.key, "POST", onLease(token, "heartbeat"))).body.cancel_requested).toBe(true);
    expect((await call(worker.key, "POST", onLease(token, "fail"), { cancelled: true })).body).toEqual({ status: "cancelled" });
    expect((await getJob(user.key, job.id)).status).toBe("cancelled");
  });

  it("fails a job whose inputs cannot be built (its data file is gone), saying why, as the embedded runner does", async () => {
    await cancelQueued();
    const { job } = await queueSftJob();
    await getDb().trainingJob.update({ where: { id: job.id }, data: { input: JSON.stringify({ file_id: randomUUID() }) } });
    const token = (await leaseProbed(worker.key, "loader")).lease!.token;
    const res = await call(worker.key, "GET", onLease(token, "inputs"));
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/cannot be trained, so it failed: .*deleted/);
    expect(await getJob(user.key, job.id)).toMatchObject({ status: "failed", error: expect.stringMatching(/deleted/) });
  });
});

describe("fencing", () => {
  it("an expired lease taken over by another worker: the old token is a 409 everywhere and writes nothing", async () => {
    await cancelQueued();
    const { job } = await queueSftJob();
    const old = (await leaseProbed(worker.key, "first")).lease!.token;
    const oldUpload = await upload(old, peftZipFor());
    await getDb().trainingJob.update({ where: { id: job.id }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    const taken = (await leaseProbed(worker.key, "second")).lease!;
    expect(taken).toMatchObject({ job_id: job.id, attempt: 2 });

    const zip = peftZipFor();
    const stale = [
      await call(worker.key, "POST", onLease(old, "events"), { events: [{ type: "gradient_step", data: { step: 1, loss: 1 } }] }),
      await call(worker.key, "POST", onLease(old, "heartbeat")),
      await call(worker.key, "POST", onLease(old, "uploads"), { purpose: "checkpoint", bytes: zip.length, sha256: sha256(zip) }),
      await putChunk(old, oldUpload, zip, 0, zip.length - 1),
      await call(worker.key, "POST", onLease(old, "complete"), { upload_id: oldUpload }),
      await call(worker.key, "POST", onLease(old, "fail"), { message: "late" }),
    ];
    for (const res of stale) {
      expect(res.status).toBe(409);
      expect(res.body.detail).toMatch(/lease was lost/);
    }
    // The new attempt cannot use the old attempt's upload either.
    expect((await call(worker.key, "POST", onLease(taken.token, "complete"), { upload_id: oldUpload })).status).toBe(404);
    expect(await getJob(user.key, job.id)).toMatchObject({ status: "running", steps_done: 0 });
    // Another key's worker cannot use the token.
    const otherKey = await createTestWorkerKey();
    expect((await call(otherKey.key, "POST", onLease(taken.token, "heartbeat"))).status).toBe(409);
  });
});

describe("uploads and complete", () => {
  it("chunks out of order and re-sent resume from the prefix held; a PEFT zip completes the job and serves at once", async () => {
    await cancelQueued();
    const { model, job } = await queueSftJob();
    const token = (await leaseProbed(worker.key, "uploader")).lease!.token;
    await call(worker.key, "GET", onLease(token, "inputs"));
    await call(worker.key, "POST", onLease(token, "events"), { events: [{ type: "gradient_step", data: { step: 1, loss: 1.5 } }] });
    const zip = peftZipFor();
    const id = await upload(token, zip);
    const third = Math.floor(zip.length / 3);
    expect((await putChunk(token, id, zip, third, 2 * third - 1)).body).toEqual({ received: 0 });
    expect((await call(worker.key, "POST", onLease(token, "complete"), { upload_id: id })).status).toBe(409); // incomplete
    expect((await putChunk(token, id, zip, 0, third - 1)).body).toEqual({ received: 2 * third });
    expect((await putChunk(token, id, zip, 0, third - 1)).body).toEqual({ received: 2 * third }); // sent again
    expect((await call(worker.key, "GET", onLease(token, `uploads/${id}`))).body).toEqual({ received: 2 * third });
    const bad = await putChunk(token, id, zip, 2 * third, zip.length); // one byte past the end
    expect(bad.status).toBe(422);
    expect((await putChunk(token, id, zip, 2 * third, zip.length - 1)).body).toEqual({ received: zip.length });

    const done = await call(worker.key, "POST", onLease(token, "complete"), { upload_id: id, metrics: { "train/loss": 1.5 } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ checkpoint_step: 1 });
    expect(await getJob(user.key, job.id)).toMatchObject({ status: "succeeded", checkpoint_step: 1, steps_done: 1 });
    const served = await json(api("POST", "/v1/chat/completions", {
      bearer: user.key, body: { model: `${user.username}/workers/${model.name}:step1`, messages: [{ role: "user", content: "say 1" }], max_tokens: 2, temperature: 0 },
    }));
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    expect((await call(worker.key, "POST", onLease(token, "heartbeat"))).status).toBe(409); // the job ended
  });

  it("refuses an upload whose bytes do not match its SHA-256, and an adapter that does not fit the model", async () => {
    await cancelQueued();
    await queueSftJob();
    const token = (await leaseProbed(worker.key, "checker")).lease!.token;
    const zip = peftZipFor();
    const wrongHash = await upload(token, zip, "checkpoint", "0".repeat(64));
    expect((await putChunk(token, wrongHash, zip, 0, zip.length - 1)).status).toBe(200);
    const mismatch = await call(worker.key, "POST", onLease(token, "complete"), { upload_id: wrongHash });
    expect(mismatch.status).toBe(409);
    expect(mismatch.body.detail).toMatch(/SHA-256/);
    const rank16 = peftZipFor(16, 32);
    const misfit = await upload(token, rank16);
    await putChunk(token, misfit, rank16, 0, rank16.length - 1);
    const refused = await call(worker.key, "POST", onLease(token, "complete"), { upload_id: misfit });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/rank is 16/);
  });

  it("a committed state is the next attempt's resume point; release hands the job back without counting the attempt", async () => {
    await cancelQueued();
    const { job } = await queueSftJob();
    const token = (await leaseProbed(worker.key, "saver")).lease!.token;
    const state = new Uint8Array(1000).map((_, i) => i % 251);
    const id = await upload(token, state, "state");
    await putChunk(token, id, state, 0, state.length - 1);
    expect((await call(worker.key, "POST", onLease(token, "state"), { upload_id: id, step: 3, format: "anneal-torch-peft-1" })).body).toEqual({ resume_step: 3 });
    expect((await call(worker.key, "POST", onLease(token, "fail"), { release: true })).body).toEqual({ status: "queued" });
    expect(await getJob(user.key, job.id)).toMatchObject({ status: "queued", attempts: 0 });

    const next = (await leaseProbed(worker.key, "resumer")).lease!.token;
    const inputs = await call(worker.key, "GET", onLease(next, "inputs"));
    expect(inputs.body.resume).toEqual({ step: 3, format: "anneal-torch-peft-1", url: onLease(next, "state") });
    const download = await api("GET", onLease(next, "state"), { bearer: worker.key });
    expect(download.headers.get("x-anneal-state-format")).toBe("anneal-torch-peft-1");
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(state);
  });
});

describe("probe", () => {
  it("passes a worker whose base computes Anneal's logprobs, and refuses one whose base differs (409, never leased it)", async () => {
    const shipped = path.resolve("models/tiny-chat-2.gguf");
    const other = path.resolve("models/tiny-chat.gguf");
    const key = await createTestWorkerKey();
    const capabilities = { ...CAPABILITIES, bases: ["anneal/tiny-chat-2"] };
    const asked = await lease(key.key, "prober", capabilities);
    expect(asked.body.probe).toMatchObject({ base: "anneal/tiny-chat-2", ids: expect.any(Array) });
    const ids: number[] = asked.body.probe.ids;
    expect(ids).toHaveLength(64);
    const good = await call(key.key, "POST", "/v1/workers/probe", { instance: "prober", base: "anneal/tiny-chat-2", logprobs: probeLogprobs(shipped, ids) });
    expect(good.body).toMatchObject({ base: "anneal/tiny-chat-2", passed: true, checked: true, mean_abs_delta: 0, tolerance: 0.05 });

    const wrong = await call(key.key, "POST", "/v1/workers/probe", { instance: "imposter", base: "anneal/tiny-chat-2", logprobs: probeLogprobs(other, ids) });
    expect(wrong.status).toBe(404); // it never leased
    await lease(key.key, "imposter", capabilities);
    const refused = await call(key.key, "POST", "/v1/workers/probe", { instance: "imposter", base: "anneal/tiny-chat-2", logprobs: probeLogprobs(other, ids) });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/differ from Anneal's by \d+\.\d+ nats/);
    // Not asked again, and not leased that base's jobs.
    expect((await lease(key.key, "imposter", capabilities)).body).toEqual({ lease: null, retry_after_ms: expect.any(Number) });
  });
});

describe("waiting_for", () => {
  it("says which worker a queued job waits for, and is null once a fitting worker is live", async () => {
    await cancelQueued();
    await getDb().remoteWorker.updateMany({ data: { lastSeenAt: new Date(0) } });
    const { job } = await queueSftJob({ ...LORA, rank: 32 });
    expect((await getJob(user.key, job.id)).waiting_for).toBe("a worker with base anneal-test/Tiny-Chat (no live worker offers it)");
    await lease(worker.key, "small", { ...CAPABILITIES, max_rank: 16 });
    expect((await getJob(user.key, job.id)).waiting_for).toBe(
      "a worker with base anneal-test/Tiny-Chat that trains SFT on a rank-32 LoRA adapter for this team (the live workers offering that base do not)",
    );
    const listed = await call(user.key, "GET", `/v1/preview/training-jobs?model_id=${job.model_id}`);
    expect(listed.body.data[0].waiting_for).toMatch(/rank-32/);
    await lease(worker.key, "big", { ...CAPABILITIES, kinds: ["rl"] }); // registers without taking it
    await getDb().remoteWorker.updateMany({ where: { instance: "big" }, data: { capabilities: CAPABILITIES } });
    expect((await getJob(user.key, job.id)).waiting_for).toBeNull();
  });
});

describe("job bundles", () => {
  const bundleOf = async (jobId: string) => {
    const res = await api("POST", `/v1/preview/training-jobs/${jobId}/bundle`, { bearer: user.key, body: { lease_hours: 1 } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-tar");
    const files = readTar(new Uint8Array(await res.arrayBuffer()), 64 << 20);
    return JSON.parse(Buffer.from(files.get("job.json")!).toString("utf8"));
  };
  const resultTar = (job: { lease: { token: string; job_id: string } }, steps: number) =>
    writeTar([
      { name: "result.json", data: Buffer.from(JSON.stringify({
        version: 1, token: job.lease.token, job_id: job.lease.job_id,
        events: Array.from({ length: steps }, (_, i) => ({ type: "gradient_step", data: { step: i + 1, loss: 1 } })), metrics: { "train/loss": 1 },
      })) },
      { name: "adapter.zip", data: peftZipFor() },
    ]);
  const importResult = (jobId: string, tar: Uint8Array) =>
    json(api("POST", `/v1/preview/training-jobs/${jobId}/bundle-result`, { bearer: user.key, rawBody: tar, headers: { "content-type": "application/x-tar" } }));

  it("leases a job to a bundle (job.json: the lease and the inputs) and imports its result.tar as complete does", async () => {
    await cancelQueued();
    const { job } = await queueSftJob();
    const bundle = await bundleOf(job.id);
    expect(bundle).toMatchObject({ version: 1, lease: { job_id: job.id, attempt: 1, mode: "lora" }, inputs: { kind: "sft", start: { adapter: null }, resume: null } });
    expect((await call(user.key, "POST", `/v1/preview/training-jobs/${job.id}/bundle`)).status).toBe(409); // held by the bundle
    const done = await importResult(job.id, resultTar(bundle, 2));
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ checkpoint_step: 1 });
    expect(await getJob(user.key, job.id)).toMatchObject({ status: "succeeded", steps_done: 2, checkpoint_step: 1 });
  });

  it("refuses a bundle whose lease expired and whose job another worker took (409), and a malformed result (422)", async () => {
    await cancelQueued();
    const { job } = await queueSftJob();
    const bundle = await bundleOf(job.id);
    await getDb().trainingJob.update({ where: { id: job.id }, data: { leaseExpiresAt: new Date(Date.now() - 1000) } });
    expect((await leaseProbed(worker.key, "after-bundle")).lease).toMatchObject({ job_id: job.id, attempt: 2 });
    const stale = await importResult(job.id, resultTar(bundle, 1));
    expect(stale.status).toBe(409);
    expect(stale.body.detail).toMatch(/lease was lost/);
    expect((await importResult(job.id, new Uint8Array(1024).fill(1))).status).toBe(422);
  });
});
