import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { TrainingRunner } from "@/lib/training/jobs/runner";
import { jobSchema } from "@/lib/training/jobs/schemas";
import { RlRunDriver } from "@/lib/training/rl-runs/run-driver";
import { rlRunPage, rlRunSchema, type RlRunDto } from "@/lib/training/rl-runs/schemas";
import { useTempDataDir } from "./data-dir";
import { createTestUser, type TestUser } from "./factories";
import { api, json } from "./http";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// RL runs end to end: created over HTTP, driven by a real run driver (rollouts on the embedded
// engine) and trained by a real training runner, read back over HTTP; cancelled; and continued
// by a new driver after the first one stopped (a restart), at the iteration it was in.

let fixture: InferenceFixture;
let user: TestUser;
let other: TestUser;
let runner: TrainingRunner | null = null;
let driver: RlRunDriver | null = null;
useTempDataDir("rl-runs");

const startRunner = async () => {
  runner = new TrainingRunner({ kind: "embedded", leaseMs: 5_000, heartbeatMs: 100, pollMs: 50, maxAttempts: 2, concurrency: 1, stallMs: 60_000 });
  await runner.start();
};
const stopRunner = async () => {
  await runner?.stop();
  runner = null;
};
const startDriver = () => {
  driver = new RlRunDriver({ leaseMs: 5_000, heartbeatMs: 100, pollMs: 50, maxAttempts: 2, concurrency: 1 });
  driver.start();
};
const stopDriver = async () => {
  await driver?.stop();
  driver = null;
};

beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
  other = await createTestUser();
});
afterAll(async () => {
  await stopDriver();
  await stopRunner();
  fixture.remove();
});

async function createModel(name: string) {
  const res = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "rl-runs", name, base_model: "test/tiny" } }));
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

const PROMPTS = [
  { messages: [{ role: "user", content: "count to three" }], reference: "1 2 3" },
  { messages: [{ role: "user", content: "say hi" }], reference: "hi" },
];
// The random-weight test model's 8-token replies vary in length: every group has rewards 0 and 1.
const CHECKER = { type: "length", min: 0, max: 12 };

async function createRun(modelId: string, extra: Record<string, unknown> = {}): Promise<RlRunDto> {
  const res = await json(api("POST", "/v1/preview/rl-runs", {
    bearer: user.key,
    body: { model_id: modelId, prompts: { source: "inline", items: PROMPTS }, checker: CHECKER, group_size: 6, iterations: 2, max_tokens: 8, ...extra },
  }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return rlRunSchema.parse(res.body);
}

async function getRun(id: string, key = user.key) {
  return json(api("GET", `/v1/preview/rl-runs/${id}`, { bearer: key }));
}

async function waitFor(id: string, done: (run: RlRunDto) => boolean, timeoutMs = 60_000): Promise<RlRunDto> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = rlRunSchema.parse((await getRun(id)).body);
    if (done(run)) return run;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${run.status}: ${JSON.stringify(run)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function jobStatus(id: string) {
  return jobSchema.parse((await json(api("GET", `/v1/preview/training-jobs/${id}`, { bearer: user.key }))).body).status;
}

describe("RL runs", () => {
  it("run every iteration: rollouts, rewards, one RL job and its checkpoint per iteration", async () => {
    await startRunner();
    startDriver();
    const model = await createModel("loop");
    const created = await createRun(model.id);
    expect(created).toMatchObject({ status: "queued", prompt_count: 2, group_size: 6, iterations: 2, prompts_per_iteration: 2, iterations_done: 0, history: [] });

    const run = await waitFor(created.id, (r) => r.status !== "queued" && r.status !== "running");
    expect(run.status, run.error ?? "").toBe("succeeded");
    expect(run.iterations_done).toBe(2);
    expect(run.history.map((h) => [h.iteration, h.rollout_step, h.trajectories])).toEqual([[0, 0, 12], [1, 1, 12]]);
    for (const h of run.history) {
      expect(h.trainable_groups).toBeGreaterThan(0);
      expect(h.reward_mean).toBeGreaterThanOrEqual(0);
      expect(h.reward_mean).toBeLessThanOrEqual(1);
      expect(await jobStatus(h.job_id!)).toBe("succeeded");
    }
    expect(run.history.map((h) => h.checkpoint_step)).toEqual([1, 2]);
    const checkpoints = await getDb().checkpoint.findMany({ where: { modelId: model.id }, orderBy: { step: "asc" } });
    expect(checkpoints.map((c) => c.step)).toEqual([1, 2]);

    const list = rlRunPage.parse((await json(api("GET", `/v1/preview/rl-runs?model_id=${model.id}`, { bearer: user.key }))).body);
    expect(list.data.map((r) => r.id)).toEqual([created.id]);
  }, 120_000);

  it("replays its rollouts from a seed: the same seed on the same fresh base samples the same replies", async () => {
    const seeded = { seed: 1234, iterations: 1, group_size: 4, max_tokens: 8 };
    const runs = [];
    for (const [name, extra] of [["seed-a", seeded], ["seed-b", seeded], ["seed-other", { ...seeded, seed: 99 }]] as const) {
      const created = await createRun((await createModel(name)).id, extra);
      expect(created.seed).toBe(extra.seed);
      const run = await waitFor(created.id, (r) => r.status !== "queued" && r.status !== "running");
      expect(run.status, run.error ?? "").toBe("succeeded");
      runs.push(run.history[0]);
    }
    const replies = async (jobId: string | null) => {
      const job = await getDb().trainingJob.findUniqueOrThrow({ where: { id: jobId! }, select: { input: true } });
      const { trajectory_groups } = JSON.parse(job.input) as { trajectory_groups: { trajectories: { messages_and_choices: { message?: { content: string } }[]; reward: number }[] }[] };
      return trajectory_groups.map((g) => g.trajectories.map((t) => [t.messages_and_choices.at(-1)!.message!.content, t.reward]));
    };
    const [a, b, other] = await Promise.all(runs.map((h) => replies(h.job_id)));
    expect(a.flat()).toHaveLength(8);
    expect(b).toEqual(a);
    expect(runs[1].reward_mean).toBe(runs[0].reward_mean);
    expect(other).not.toEqual(a);
  }, 120_000);

  it("continues after a restart at the iteration it was in, waiting for the job it had queued", async () => {
    await stopRunner(); // the iteration's job stays queued while the driver "restarts"
    const model = await createModel("resume");
    const created = await createRun(model.id);
    const waiting = await waitFor(created.id, (r) => r.current_job_id !== null);
    await stopDriver();
    const stopped = rlRunSchema.parse((await getRun(created.id)).body);
    expect(stopped).toMatchObject({ status: "queued", iterations_done: 0, current_job_id: waiting.current_job_id });
    // A clean stop hands the run back without spending one of its attempts.
    expect((await getDb().rlRun.findUniqueOrThrow({ where: { id: created.id } })).attempts).toBe(0);

    startDriver();
    await startRunner();
    const run = await waitFor(created.id, (r) => r.status !== "queued" && r.status !== "running");
    expect(run.status, run.error ?? "").toBe("succeeded");
    expect(run.history.map((h) => h.iteration)).toEqual([0, 1]);
    expect(run.history[0].job_id).toBe(waiting.current_job_id);
    expect(await getDb().trainingJob.count({ where: { modelId: model.id } })).toBe(2);
  }, 120_000);

  it("gives up a run whose process died on each of its claims, and continues one with claims to spare", async () => {
    await stopDriver();
    const model = await createModel("abandoned");
    const [dead, alive] = [await createRun(model.id), await createRun(model.id)];
    // As a process killed mid-run leaves it: running, with a lease that has expired.
    const died = (id: string, attempts: number) => getDb().rlRun.update({ where: { id }, data: { status: "running", leaseOwner: "gone:1:dead", leaseExpiresAt: new Date(Date.now() - 1_000), attempts } });
    await died(dead.id, 2);
    await died(alive.id, 1);
    startDriver();
    const givenUp = await waitFor(dead.id, (r) => r.status === "failed");
    expect(givenUp.error).toMatch(/stopped responding during each of 2 attempts/);
    const continued = await waitFor(alive.id, (r) => r.status !== "queued" && r.status !== "running");
    expect(continued.status, continued.error ?? "").toBe("succeeded");
    expect((await getDb().rlRun.findUniqueOrThrow({ where: { id: alive.id } })).attempts).toBe(2);
  }, 120_000);

  it("cancels: the run ends cancelled and so does the job of its iteration in progress", async () => {
    await stopRunner();
    const model = await createModel("cancel");
    const created = await createRun(model.id, { iterations: 3 });
    const waiting = await waitFor(created.id, (r) => r.current_job_id !== null);
    const res = await json(api("POST", `/v1/preview/rl-runs/${created.id}/cancel`, { bearer: user.key }));
    expect(res.status).toBe(200);
    expect(rlRunSchema.parse(res.body).cancel_requested).toBe(true);
    const run = await waitFor(created.id, (r) => r.status === "cancelled");
    expect(run.finished_at).not.toBeNull();
    expect(await jobStatus(waiting.current_job_id!)).toBe("cancelled");
    // A second cancel is a no-op; the run is not another team's to see.
    expect((await json(api("POST", `/v1/preview/rl-runs/${created.id}/cancel`, { bearer: user.key }))).status).toBe(200);
    expect((await getRun(created.id, other.key)).status).toBe(404);
    expect((await json(api("POST", `/v1/preview/rl-runs/${created.id}/cancel`, { bearer: other.key }))).status).toBe(404);
    await startRunner();
  }, 120_000);

  it("refuses bad input with 422 at its place, another team's model with 404", async () => {
    const model = await createModel("bad");
    const post = (body: Record<string, unknown>, key = user.key) =>
      json(api("POST", "/v1/preview/rl-runs", { bearer: key, body: { model_id: model.id, prompts: { source: "inline", items: PROMPTS }, checker: CHECKER, ...body } }));
    const badRegex = await post({ checker: { type: "regex", pattern: "(" } });
    expect(badRegex.status).toBe(422);
    expect(badRegex.body.detail[0].loc).toEqual(["body", "checker", "pattern"]);
    const noReference = await post({ checker: { type: "exact_match" }, prompts: { source: "inline", items: [{ messages: [{ role: "user", content: "x" }] }] } });
    expect(noReference.status).toBe(422);
    expect(noReference.body.detail[0].loc).toEqual(["body", "prompts"]);
    expect((await post({ group_size: 1 })).status).toBe(422);
    expect((await post({}, other.key)).status).toBe(404);
    expect((await post({ prompts: { source: "calls", call_ids: ["00000000-0000-4000-8000-000000000000"] } })).status).toBe(404);
  });
});
