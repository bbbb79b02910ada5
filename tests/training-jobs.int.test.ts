import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dataPaths } from "@/lib/config/paths";
import { getDb } from "@/lib/db/client";
import { readLlamaGguf } from "@/lib/engine/gguf/llama-gguf";
import { absoluteCheckpointPath } from "@/lib/training/jobs/job-files";
import { claimJob } from "@/lib/training/jobs/queue";
import { TrainingRunner } from "@/lib/training/jobs/runner";
import { jobStateDir, removeStatesOfEndedJobs } from "@/lib/training/jobs/saved-states";
import { eventPage, jobSchema, type JobDto } from "@/lib/training/jobs/schemas";
import { useTempDataDir } from "./data-dir";
import { api, json } from "./http";
import { createTestUser, uniqueName, type TestUser } from "./factories";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";
import { allEvents as allEventsOf, getJob as getJobOf, TEST_RUNNER_SETTINGS, waitFinished as waitFinishedOf } from "./training-api";

// Training jobs end to end: queued over HTTP, claimed by a real runner (worker threads training
// the real engine), events and checkpoints read back over HTTP, checkpoints served by chat
// completions. The ART client's loop is replayed as its code runs it.

let fixture: InferenceFixture;
let user: TestUser;
let runner: TrainingRunner;
useTempDataDir("jobs");

/** A base an admin added by API from ANNEAL_MODELS_DIR, with a Hugging Face name (as ART names bases). */
const HF_BASE = { name: uniqueName("jobs/hf-base"), hfName: uniqueName("Qwen/Qwen2.5-0.5B-Instruct") };

beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
  fs.copyFileSync(fixture.files.model, path.join(dataPaths().models, "hf-base.gguf"));
  const admin = await createTestUser({ admin: true });
  const added = await json(api("POST", "/v1/preview/base-models", { bearer: admin.key, body: { name: HF_BASE.name, file: "hf-base.gguf", hf_name: HF_BASE.hfName } }));
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  runner = new TrainingRunner(TEST_RUNNER_SETTINGS);
  await runner.start();
});
afterAll(async () => {
  await runner.stop();
  await getDb().model.deleteMany({ where: { baseModel: HF_BASE.name } });
  await getDb().baseModelEntry.deleteMany({ where: { name: HF_BASE.name } });
  fixture.remove();
});

async function createModel(name: string, baseModel = "test/tiny") {
  const res = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "jobs", name, base_model: baseModel } }));
  expect(res.status).toBe(200);
  return res.body as { id: string; entity: string; project: string; name: string; base_model: string };
}

const SFT_EXAMPLES = Array.from({ length: 6 }, (_, i) => ({
  messages: [{ role: "user", content: `say ${i}` }, { role: "assistant", content: `ok ${i}` }],
}));

async function submitSft(modelId: string, extra: Record<string, unknown> = {}) {
  const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: modelId, training_data: SFT_EXAMPLES, config: { batch_size: 2 }, ...extra } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return jobSchema.parse(res.body);
}

const getJob = (id: string) => getJobOf(user.key, id);
const waitFinished = (id: string, timeoutMs?: number) => waitFinishedOf(user.key, id, timeoutMs);
const allEvents = (id: string) => allEventsOf(user.key, id);

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 45_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await getDb().trainingJob.findMany({ omit: { input: true }, where: { status: { in: ["queued", "running"] } } }))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A job long enough to interrupt: 150 gradient steps of one example each. */
async function submitLongSft(name: string) {
  const model = await createModel(name);
  const data = Array.from({ length: 150 }, (_, i) => SFT_EXAMPLES[i % SFT_EXAMPLES.length]);
  const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data: data, config: { batch_size: 1 } } }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { model, id: res.body.id as string };
}

/** The steps of the states saved for a job, on disk. */
const stateSteps = (id: string) =>
  (fs.existsSync(jobStateDir(id)) ? fs.readdirSync(jobStateDir(id)) : []).map((f) => /-s(\d+)\.state$/.exec(f)).filter((m) => m !== null).map((m) => Number(m[1]));

const jobRow = (id: string) => getDb().trainingJob.findUniqueOrThrow({ where: { id }, omit: { input: true } });

/** Once a job's saved state is committed past `minStep` and it has gone a few steps further. */
const savedPast = (id: string, minStep: number) => async () => {
  const job = await jobRow(id);
  return (job.resumeStep ?? 0) >= minStep && job.stepsDone >= job.resumeStep! + 3;
};

/** What a resumed job must show: each gradient step once, in order, none past num_sequences, the
 *  later attempt's runs resuming from its saved state, and no saved state left. */
async function expectResumed(id: string, savedStep: number) {
  const job = await getJob(id);
  expect(job.status).toBe("succeeded");
  const events = await allEvents(id);
  expect(events.filter((e) => e.type === "training_started")).toHaveLength(1);
  const steps = events.filter((e) => e.type === "gradient_step").map((e) => e.data.step);
  expect(steps).toEqual(Array.from({ length: job.num_sequences! }, (_, i) => i + 1));
  expect(job.steps_done).toBe(job.num_sequences);
  expect(events.at(-1)!.type).toBe("training_ended");
  const { runs } = job;
  expect(runs.map((r) => r.resumed_from_step)).toEqual([0, savedStep]);
  expect(fs.existsSync(jobStateDir(id))).toBe(false);
  return { job, events, runs };
}

/** The weights of a model's newest checkpoint. */
async function newestWeights(modelId: string) {
  const checkpoint = await getDb().checkpoint.findFirstOrThrow({ where: { modelId }, orderBy: { step: "desc" } });
  return readLlamaGguf(absoluteCheckpointPath(checkpoint.file)).weights;
}

async function expectSameWeights(modelA: string, modelB: string) {
  const [a, b] = [await newestWeights(modelA), await newestWeights(modelB)];
  for (const name of Object.keys(a)) expect(Buffer.from(b[name].buffer).equals(Buffer.from(a[name].buffer)), name).toBe(true);
}

/** Sampled completions of the model with logprobs: what an ART rollout records. */
async function rollout(model: string, prompt: string, n: number) {
  const res = await json(api("POST", "/v1/chat/completions", {
    bearer: user.key,
    body: { model, messages: [{ role: "user", content: prompt }], n, max_tokens: 6, temperature: 1, logprobs: true },
  }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.choices as { message: { content: string } }[];
}

describe("SFT jobs", () => {
  it("trains inline examples: training_started, one gradient_step per batch, the checkpoint, then training_ended", async () => {
    const model = await createModel("sft-inline");
    const queued = await submitSft(model.id);
    expect(queued).toMatchObject({ model_id: model.id, kind: "sft", input_summary: { examples: 6 } });

    const job = await waitFinished(queued.id);
    expect(job).toMatchObject({ status: "succeeded", num_sequences: 3, steps_done: 3, checkpoint_step: 1, error: null });
    const events = await allEvents(job.id);
    expect(events.map((e) => e.type)).toEqual(["training_started", "gradient_step", "gradient_step", "gradient_step", "training_ended"]);
    expect(events[0].data).toEqual({ num_sequences: 3 });
    for (const step of events.slice(1, 4)) {
      for (const value of Object.values(step.data)) expect(typeof value).toBe("number");
      expect(step.data).toHaveProperty("loss");
    }

    const checkpoints = await json(api("GET", `/v1/preview/models/${model.id}/checkpoints?limit=1&order=desc`, { bearer: user.key }));
    expect(checkpoints.body.data[0].step).toBe(1);
    expect(checkpoints.body.data[0].metrics["train/loss"]).toBeGreaterThan(0);
    const served = await rollout(`${model.entity}/${model.project}/${model.name}:step1`, "say 1", 1);
    expect(served).toHaveLength(1);
  });

  it("refuses a learning-rate list of the wrong length before queueing (422)", async () => {
    const model = await createModel("sft-bad-lr");
    const res = await json(api("POST", "/v1/preview/sft-training-jobs", {
      bearer: user.key, body: { model_id: model.id, training_data: SFT_EXAMPLES, config: { batch_size: 2, learning_rate: [1e-3, 1e-3] } },
    }));
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(["body", "config", "learning_rate"]);
  });

  it("refuses a job on a model whose base model is serve-only (400 saying so)", async () => {
    const res = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "jobs", name: "frozen-base", base_model: "test/frozen" } }));
    const job = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: res.body.id, training_data: SFT_EXAMPLES } }));
    expect(job.status).toBe(400);
    expect(job.body.detail).toMatch(/'test\/frozen' is serve-only/);
  });

  it("refuses URLs it would have to fetch, and other schemes, with how to upload (400)", async () => {
    const model = await createModel("sft-url");
    for (const url of ["https://example.com/train.jsonl", "wandb-artifact:///team/project/data:v1"]) {
      const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data_url: url } }));
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain("POST /v1/files");
    }
  });
});

describe("RL jobs and ART's client loop", () => {
  // ART's TrainableModel(base_model=…) names its base as Hugging Face does: a base added by API with that hf_name.
  it.each([
    { base: "a models-file base by its name", baseModel: "test/tiny", stored: "test/tiny" },
    { base: "a base added by API by its hf_name", baseModel: HF_BASE.hfName, stored: HF_BASE.name },
  ])("replays ART's client on $base: create, log, RL job, polling loop (after-cursor, training_started re-delivered, terminal event), then the newest checkpoint served", async ({ baseModel, stored }) => {
    const model = await createModel(`rl-art-${stored === "test/tiny" ? "file" : "api"}`, baseModel);
    expect(model).toMatchObject({ base_model: stored });
    const name = `${model.entity}/${model.project}/${model.name}`;
    const groups = [];
    for (let g = 0; g < 2; g++) {
      const choices = await rollout(name, `question ${g}`, 4);
      groups.push({
        trajectories: choices.map((choice, i) => ({
          messages_and_choices: [{ role: "user", content: `question ${g}` }, choice],
          reward: i % 2,
          metrics: {}, metadata: {}, logs: [],
        })),
        exceptions: [], metadata: {},
      });
    }
    // ART logs each step's groups before training on them.
    const logged = await json(api("POST", `/v1/preview/models/${model.id}/log`, { bearer: user.key, body: { split: "train", trajectory_groups: groups } }));
    expect(logged.status, JSON.stringify(logged.body)).toBe(200);
    const config = { learning_rate: null, advantage_balance: null, epsilon: null, epsilon_high: null, importance_sampling_level: null,
      kimi_k2_tau: null, mask_prob_ratio: null, max_negative_advantage_importance_sampling_weight: null, ppo: null, precalculate_logprobs: null, scale_rewards: null };
    const created = await json(api("POST", "/v1/preview/training-jobs", { bearer: user.key, body: { model_id: model.id, trajectory_groups: groups, experimental_config: config } }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const jobId: string = created.body.id;

    // ART: sleep, list events after the last processed id (auto-paging); the cursor advances on
    // every event except training_started; training_ended returns, training_failed raises.
    let after: string | undefined;
    let startedSeen = 0;
    const steps: number[] = [];
    let ended = false;
    for (let polls = 0; !ended && polls < 600; polls++) {
      await new Promise((r) => setTimeout(r, 50));
      let page;
      let cursor = after;
      do {
        const res = await json(api("GET", `/v1/preview/training-jobs/${jobId}/events${cursor ? `?after=${cursor}` : ""}`, { bearer: user.key }));
        expect(res.status).toBe(200);
        page = eventPage.parse(res.body);
        for (const event of page.data) {
          cursor = event.id;
          if (event.type === "training_started") {
            startedSeen++;
            expect(event.data.num_sequences).toEqual(expect.any(Number));
            continue;
          }
          after = event.id;
          if (event.type === "gradient_step") steps.push(event.data.step as number);
          if (event.type === "training_failed") throw new Error(`Training job failed: ${String(event.data.error_message)}`);
          if (event.type === "training_ended") ended = true;
        }
      } while (page.has_more);
    }
    expect(ended).toBe(true);
    expect(startedSeen).toBeGreaterThanOrEqual(1);
    expect(steps.length).toBeGreaterThan(0);
    expect(steps).toEqual(steps.map((_, i) => i + 1));

    const newest = await json(api("GET", `/v1/preview/models/${model.id}/checkpoints?limit=1&order=desc`, { bearer: user.key }));
    expect(newest.body.data[0].step).toBe(1);
    expect(newest.body.data[0].metrics["train/reward"]).toBeCloseTo(0.5);
    await rollout(`wandb-artifact:///${name}:step1`, "question 0", 1);
  });

  it("advances the step even when no group is trainable: training_started{0}, checkpoint, training_ended", async () => {
    const model = await createModel("rl-flat");
    const name = `${model.entity}/${model.project}/${model.name}`;
    const choices = await rollout(name, "hello", 2);
    const body = { model_id: model.id, trajectory_groups: [{ trajectories: choices.map((c) => ({ messages_and_choices: [{ role: "user", content: "hello" }, c], reward: 1 })) }] };
    const first = await json(api("POST", "/v1/preview/training-jobs", { bearer: user.key, body }));
    const second = await json(api("POST", "/v1/preview/training-jobs", { bearer: user.key, body }));
    const [a, b] = [await waitFinished(first.body.id), await waitFinished(second.body.id)];
    expect([a.checkpoint_step, b.checkpoint_step]).toEqual([1, 2]);
    expect((await allEvents(a.id)).map((e) => [e.type, e.data])).toEqual([["training_started", { num_sequences: 0 }], ["training_ended", { step: 1 }]]);
  });

  it("fails a job whose trajectory names an unknown token with training_failed, and writes no checkpoint", async () => {
    const model = await createModel("rl-bad-token");
    const choice = (content: string) => ({ finish_reason: "stop", index: 0, message: { role: "assistant", content }, logprobs: { content: [{ token: "token_id:999999", logprob: -1 }] } });
    const body = { model_id: model.id, trajectory_groups: [{ trajectories: [
      { messages_and_choices: [{ role: "user", content: "x" }, choice("a")], reward: 0 },
      { messages_and_choices: [{ role: "user", content: "x" }, choice("b")], reward: 1 },
    ] }] };
    const created = await json(api("POST", "/v1/preview/training-jobs", { bearer: user.key, body }));
    const job = await waitFinished(created.body.id);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/trajectory_groups\[0\]\.trajectories\[0\]/);
    const events = await allEvents(job.id);
    expect(events.filter((e) => e.type === "training_failed")).toHaveLength(1);
    expect(events.at(-1)!.type).toBe("training_failed");
    expect(await getDb().checkpoint.count({ where: { modelId: model.id } })).toBe(0);
    expect((await getDb().model.findUniqueOrThrow({ where: { id: model.id } })).currentStep).toBe(0);
  });

  it("refuses a NaN reward and a trajectory without a Choice before queueing (422)", async () => {
    const model = await createModel("rl-bad-input");
    const nan = await api("POST", "/v1/preview/training-jobs", {
      bearer: user.key,
      rawBody: `{"model_id":"${model.id}","trajectory_groups":[{"trajectories":[{"messages_and_choices":[{"role":"user","content":"x"}],"reward":NaN}]}]}`,
    });
    const nanBody = await nan.json();
    expect(nan.status).toBe(422);
    expect(nanBody.detail[0].loc).toEqual(["body", "trajectory_groups", "0", "trajectories", "0", "reward"]);

    const noChoice = await json(api("POST", "/v1/preview/training-jobs", {
      bearer: user.key, body: { model_id: model.id, trajectory_groups: [{ trajectories: [{ messages_and_choices: [{ role: "user", content: "x" }, { role: "assistant", content: "y" }], reward: 1 }] }] },
    }));
    expect(noChoice.status).toBe(422);
    expect(noChoice.body.detail[0].loc).toEqual(["body", "trajectory_groups", "0", "trajectories", "0", "messages_and_choices"]);
    expect(await getDb().trainingJob.count({ where: { modelId: model.id } })).toBe(0);
  });
});

describe("job lifecycle", () => {
  it("cancels a queued job (training_failed, no checkpoint) and refuses to delete a model with an unfinished job (409)", async () => {
    await runner.stop();
    try {
      const model = await createModel("cancel-queued");
      const job = await submitSft(model.id);
      const del = await json(api("DELETE", `/v1/preview/models/${model.id}`, { bearer: user.key }));
      expect(del.status).toBe(409);
      const cancelled = await json(api("POST", `/v1/preview/training-jobs/${job.id}/cancel`, { bearer: user.key }));
      expect(cancelled.body).toMatchObject({ status: "cancelled" });
      expect((await allEvents(job.id)).map((e) => e.type)).toEqual(["training_failed"]);
      const again = await json(api("POST", `/v1/preview/training-jobs/${job.id}/cancel`, { bearer: user.key }));
      expect(again.status).toBe(200);
      expect((await json(api("DELETE", `/v1/preview/models/${model.id}`, { bearer: user.key }))).status).toBe(200);
    } finally {
      runner = new TrainingRunner(runner.settings);
      await runner.start();
    }
  });

  it("removes the saved state of a job cancelled while queued (after a hand-back), and keeps a queued job's", async () => {
    await runner.stop();
    try {
      const [cancelled, waiting] = [await submitSft((await createModel("sweep-cancelled")).id), await submitSft((await createModel("sweep-queued")).id)];
      for (const job of [cancelled, waiting]) {
        fs.mkdirSync(jobStateDir(job.id), { recursive: true });
        fs.writeFileSync(`${jobStateDir(job.id)}/a1-s10.state`, "a state a hand-back left");
      }
      await json(api("POST", `/v1/preview/training-jobs/${cancelled.id}/cancel`, { bearer: user.key }));
      await removeStatesOfEndedJobs(); // what every runner does between jobs, at most every 10 s
      expect(fs.existsSync(jobStateDir(cancelled.id))).toBe(false);
      expect(fs.existsSync(jobStateDir(waiting.id))).toBe(true);
      await json(api("POST", `/v1/preview/training-jobs/${waiting.id}/cancel`, { bearer: user.key }));
    } finally {
      runner = new TrainingRunner(runner.settings);
      await runner.start();
    }
  });

  it("cancels a running job within a heartbeat, and lists jobs by model and status", async () => {
    const model = await createModel("cancel-running");
    // Long examples: a step of a few tokens takes ~1 ms, and 3,000 of them ended before the cancel
    // arrived on a fast machine; ~200 tokens a step keep the job running for many seconds.
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const many = Array.from({ length: 3000 }, (_, i) => ({ messages: [{ role: "user", content: `say ${i} ${long}` }, { role: "assistant", content: `ok ${i} ${long}` }] }));
    const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data: many, config: { batch_size: 1 } } }));
    const id: string = res.body.id;
    for (let i = 0; i < 400 && (await getJob(id)).steps_done < 1; i++) await new Promise((r) => setTimeout(r, 25));
    await json(api("POST", `/v1/preview/training-jobs/${id}/cancel`, { bearer: user.key }));
    const job = await waitFinished(id);
    expect(job.status).toBe("cancelled");
    expect(job.steps_done).toBeLessThan(3000);
    const events = await allEvents(id);
    expect(events.at(-1)).toMatchObject({ type: "training_failed", data: { error_message: expect.stringMatching(/Cancelled/) } });
    expect(await getDb().checkpoint.count({ where: { modelId: model.id } })).toBe(0);

    const listed = await json(api("GET", `/v1/preview/training-jobs?model_id=${model.id}&status=cancelled`, { bearer: user.key }));
    expect(listed.body.data.map((j: JobDto) => j.id)).toEqual([id]);
  });
});

describe("a stuck training thread", () => {
  it("fails its job with training_failed once it reports nothing for the stall limit, and the runner goes on", async () => {
    await runner.stop();
    const impatient = new TrainingRunner({ ...runner.settings, heartbeatMs: 20, stallMs: 100 });
    await impatient.start();
    try {
      const model = await createModel("stalled");
      const many = Array.from({ length: 3000 }, (_, i) => SFT_EXAMPLES[i % SFT_EXAMPLES.length]);
      // One batch of 3000 conversations: one long silent step.
      const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data: many, config: { batch_size: 3000 } } }));
      const job = await waitFinished(res.body.id);
      expect(job.status).toBe("failed");
      expect(job.error).toMatch(/reported nothing for 100 ms \(ANNEAL_JOB_STALL_MS\)/);
      expect((await allEvents(job.id)).filter((e) => e.type === "training_failed")).toHaveLength(1);
    } finally {
      await impatient.stop();
      runner = new TrainingRunner(runner.settings);
      await runner.start();
    }
    const after = await submitSft((await createModel("after-stall")).id);
    expect((await waitFinished(after.id)).status).toBe("succeeded");
  });
});

describe("the queue under concurrency", () => {
  it("gives each queued job to exactly one of many simultaneous claimers, and a model's jobs one at a time", async () => {
    await runner.stop();
    try {
      const models = [await createModel("claims-a"), await createModel("claims-b")];
      const jobs = [];
      for (const m of models) for (let k = 0; k < 2; k++) jobs.push(await getDb().trainingJob.create({ data: { modelId: m.id, kind: "sft", input: "{}" } }));
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => claimJob(`claimer-${i}`, 60_000, 3)));
      const claimed = claims.filter((c) => c !== null).map((c) => c!.id).sort();
      // One per model: the second job of each waits for the first to finish.
      expect(claimed).toEqual([jobs[0].id, jobs[2].id].sort());
      await getDb().trainingJob.updateMany({ where: { id: { in: jobs.map((j) => j.id) } }, data: { status: "cancelled", leaseOwner: null } });
    } finally {
      runner = new TrainingRunner(runner.settings);
      await runner.start();
    }
  });
});

// Worker processes need a database they can share: PostgreSQL (TEST_DATABASE_URL in npm test).
// Each test starts worker processes (several seconds each on a busy machine).
describe.skipIf(!process.env.DATABASE_URL)("worker processes (npm run worker) and crashes", { timeout: 150_000 }, () => {
  const workers = new Set<ChildProcess>();
  const startWorker = () => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      cwd: process.cwd(),
      // A lease of seconds: on a loaded machine a live worker's heartbeat can come late, and with
      // two attempts a lease lost by the retry fails the job.
      env: {
        ...process.env, ANNEAL_JOB_LEASE_MS: "3000", ANNEAL_JOB_HEARTBEAT_MS: "200", ANNEAL_JOB_POLL_MS: "100", ANNEAL_JOB_MAX_ATTEMPTS: "2", ANNEAL_LOG_LEVEL: "error",
        ANNEAL_TRAINING_SAVE_STEPS: "10", ANNEAL_TRAINING_SAVE_SECONDS: "0",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    workers.add(child);
    child.on("exit", () => workers.delete(child));
    return child;
  };
  const killed = (child: ChildProcess) => new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
  const longSft = async (name: string) => {
    const model = await createModel(name);
    // Long examples: a step of a few tokens takes ~1 ms, and 3,000 of them ended before the cancel
    // arrived on a fast machine; ~200 tokens a step keep the job running for many seconds.
    const long = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const many = Array.from({ length: 3000 }, (_, i) => ({ messages: [{ role: "user", content: `say ${i} ${long}` }, { role: "assistant", content: `ok ${i} ${long}` }] }));
    const res = await json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body: { model_id: model.id, training_data: many, config: { batch_size: 1 } } }));
    return { model, id: res.body.id as string };
  };

  beforeAll(async () => {
    await runner.stop(); // only the worker processes train here
  });
  afterEach(async () => {
    await Promise.all([...workers].map(killed)); // each test starts its own
  });
  afterAll(async () => {
    runner = new TrainingRunner(runner.settings);
    await runner.start();
  });

  it("resumes a job whose worker was killed (kill -9) from its last save: each step once, the uninterrupted run's weights, one checkpoint", async () => {
    const { model, id } = await submitLongSft("crash-resume");
    const first = startWorker();
    await until("a saved state and steps past it", savedPast(id, 20));
    await killed(first);
    const atKill = await jobRow(id);
    const second = startWorker();
    await waitFinished(id, 60_000);
    const { job, events, runs } = await expectResumed(id, atKill.resumeStep!);
    expect(job).toMatchObject({ attempts: 2, checkpoint_step: 1 });
    // Steps the first attempt reported stand; the retry reports the rest, tagged with its attempt.
    const attempts = events.filter((e) => e.type === "gradient_step").map((e) => e.data.attempt ?? 1);
    expect(attempts).toEqual(attempts.map((_, i) => (i < atKill.stepsDone ? 1 : 2)));
    expect(runs.map((r) => [r.attempt, r.pid])).toEqual([[1, first.pid], [2, second.pid]]);
    expect(await getDb().checkpoint.count({ where: { modelId: model.id } })).toBe(1);

    const uninterrupted = await submitLongSft("crash-uninterrupted");
    expect((await waitFinished(uninterrupted.id, 60_000)).status).toBe("succeeded");
    await expectSameWeights(uninterrupted.model.id, model.id);
  });

  it("a worker's clean shutdown (SIGTERM) saves the running job's state first and hands it back: resumed with no step redone, no attempt counted", async () => {
    const { id } = await submitLongSft("sigterm-resume");
    const first = startWorker();
    await until("a saved state and steps past it", savedPast(id, 20));
    const signalled = Date.now();
    await new Promise<void>((resolve) => {
      first.once("exit", () => resolve());
      first.kill("SIGTERM");
    });
    expect(Date.now() - signalled).toBeLessThan(15_000); // ANNEAL_SHUTDOWN_DRAIN_MS
    const handedBack = await jobRow(id);
    expect(handedBack).toMatchObject({ status: "queued", attempts: 0 });
    // Saved at the step it had reached (saves are due every 10 steps; it was 3 or more past one).
    expect(handedBack.resumeStep).toBe(handedBack.stepsDone);
    // Committing a state deleted the one it replaced; only states newer than it may be beside it.
    expect(stateSteps(id)).toContain(handedBack.resumeStep);
    expect(stateSteps(id).filter((step) => step < handedBack.resumeStep!)).toEqual([]);
    startWorker();
    await waitFinished(id, 60_000);
    const { runs } = await expectResumed(id, handedBack.resumeStep!);
    expect(runs.map((r) => r.attempt)).toEqual([1, 1]);
  });

  it("removes a running job's saved states when it is cancelled", async () => {
    const { id } = await submitLongSft("cancel-saved");
    startWorker();
    await until("a saved state", savedPast(id, 10));
    expect(stateSteps(id).length).toBeGreaterThan(0);
    await json(api("POST", `/v1/preview/training-jobs/${id}/cancel`, { bearer: user.key }));
    expect((await waitFinished(id, 60_000)).status).toBe("cancelled");
    // Right after the end: its worker removes them once the thread it stopped has exited.
    await until("the saved states removed", async () => !fs.existsSync(jobStateDir(id)), 5_000);
  });

  it("fails a job with training_failed once every attempt's worker died, and removes its saved state", async () => {
    const { model, id } = await longSft("crash-fail");
    let reported = 0;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const worker = startWorker();
      await until(`attempt ${attempt} to train past a save`, async () => {
        const job = await getJob(id);
        return job.attempts === attempt && job.steps_done >= reported + 12;
      });
      await killed(worker);
      reported = (await getJob(id)).steps_done;
    }
    expect(fs.existsSync(jobStateDir(id))).toBe(true);
    startWorker(); // finds the lease expired with no attempts left
    const job = await waitFinished(id, 60_000);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/stopped responding during each of 2 attempts/);
    const events = await allEvents(id);
    expect(events.filter((e) => e.type === "training_failed")).toHaveLength(1);
    expect(events.at(-1)!.type).toBe("training_failed");
    expect(await getDb().checkpoint.count({ where: { modelId: model.id } })).toBe(0);
    expect(fs.existsSync(jobStateDir(id))).toBe(false);
  });

  it("two workers share the queue without running a job twice; each model's jobs run in order", async () => {
    startWorker();
    startWorker();
    const models = [await createModel("pair-a"), await createModel("pair-b"), await createModel("pair-c")];
    const ids: string[] = [];
    for (const m of models) for (let k = 0; k < 2; k++) ids.push((await submitSft(m.id)).id);
    const jobs = await Promise.all(ids.map((id) => waitFinished(id, 60_000)));
    for (const job of jobs) expect(job).toMatchObject({ status: "succeeded", attempts: 1 });
    for (const [i, m] of models.entries()) {
      const [a, b] = [jobs[2 * i], jobs[2 * i + 1]];
      expect([a.checkpoint_step, b.checkpoint_step]).toEqual([1, 2]);
      expect(Date.parse(b.started_at!)).toBeGreaterThanOrEqual(Date.parse(a.finished_at!));
      expect(await getDb().checkpoint.count({ where: { modelId: m.id } })).toBe(2);
    }
  });
});
