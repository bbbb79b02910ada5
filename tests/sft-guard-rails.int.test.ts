import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSOLE_SFT_DEFAULTS } from "@/lib/client/sft-plan";
import { sampleExamples } from "@/lib/engine/corpus/generate";
import { TrainingRunner } from "@/lib/training/jobs/runner";
import { TINY_CHAT_3 } from "@/lib/inference/base-models";
import { chatCompletionSchema } from "@/lib/inference/chat-response";
import { eventPage, jobSchema, type EventDto, type JobDto } from "@/lib/training/jobs/schemas";
import { useTempDataDir } from "./data-dir";
import { createTestUser, type TestUser } from "./factories";
import { api, json } from "./http";
import { installInferenceModels, type InferenceFixture } from "./inference-fixture";

// SFT's per-job validation and guard rails through the API, trained by a real runner: val/* at each
// epoch's end and on the checkpoint, early stopping, and the warnings and replies before/after of a
// job whose checkpoint is worse than its start. The small job a person launches from the console
// with its defaults (40 examples of a new reply format on anneal/tiny-chat) must learn or be flagged.

let fixture: InferenceFixture;
let user: TestUser;
let runner: TrainingRunner;
useTempDataDir("sft-guard");

beforeAll(async () => {
  fixture = installInferenceModels();
  user = await createTestUser();
  runner = new TrainingRunner({ kind: "embedded", leaseMs: 10_000, heartbeatMs: 200, pollMs: 50, maxAttempts: 1, concurrency: 1, stallMs: 120_000 });
  await runner.start();
});
afterAll(async () => {
  await runner.stop();
  fixture.remove();
});

async function createModel(name: string, base: string) {
  const res = await json(api("POST", "/v1/preview/models", { bearer: user.key, body: { project: "sft-guard", name, base_model: base } }));
  expect(res.status).toBe(200);
  return res.body as { id: string };
}

async function submit(body: Record<string, unknown>) {
  return json(api("POST", "/v1/preview/sft-training-jobs", { bearer: user.key, body }));
}

async function runJob(body: Record<string, unknown>, timeoutMs = 240_000): Promise<JobDto> {
  const res = await submit(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = jobSchema.parse((await json(api("GET", `/v1/preview/training-jobs/${(res.body as { id: string }).id}`, { bearer: user.key }))).body);
    if (["succeeded", "failed", "cancelled"].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`job still ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stepEvents(jobId: string): Promise<EventDto["data"][]> {
  const res = await json(api("GET", `/v1/preview/training-jobs/${jobId}/events?limit=100`, { bearer: user.key }));
  return eventPage.parse(res.body).data.filter((e) => e.type === "gradient_step").map((e) => e.data);
}

async function checkpointMetrics(modelId: string): Promise<Record<string, number>> {
  const res = await json(api("GET", `/v1/preview/models/${modelId}/checkpoints?limit=1&order=desc`, { bearer: user.key }));
  return (res.body as { data: { metrics: Record<string, number> }[] }).data[0].metrics;
}

/** The corpus's tasks with every answer in a format tiny-chat never writes. */
const tagged = (seed: number, split: "train" | "heldout", count: number) =>
  sampleExamples({ families: ["arithmetic", "strings", "counting", "json"], split, seed, count }).map((e) => ({
    messages: [...e.messages, { role: "assistant", content: `<answer>${e.answer}</answer>` }],
  }));

const echo = (n: number) => ({ messages: [{ role: "user", content: `say ${n}` }, { role: "assistant", content: `ok ${n}` }] });

describe("validation", () => {
  it("reports val/loss and val/accuracy at each epoch's end and on the checkpoint, with the starting weights' values beside them", async () => {
    const model = await createModel("validation", "test/tiny");
    const job = await runJob({
      model_id: model.id,
      training_data: Array.from({ length: 8 }, (_, i) => echo(i)),
      validation_data: [echo(20), echo(21)],
      config: { batch_size: 4, epochs: 3, early_stopping_patience: 3, validation_checker: { type: "exact_match" } },
    });
    expect(job).toMatchObject({ status: "succeeded", num_sequences: 6, steps_done: 6, input_summary: { examples: 8, validation_examples: 2 } });
    const steps = await stepEvents(job.id);
    expect(steps.map((s) => s.epoch)).toEqual([undefined, 1, undefined, 2, undefined, 3]);
    for (const end of [steps[1], steps[3], steps[5]]) {
      expect(end["val/loss"]).toBeGreaterThan(0);
      expect(end["val/accuracy"]).toBeGreaterThanOrEqual(0);
    }
    expect(steps[0]).not.toHaveProperty("val/loss");
    const metrics = await checkpointMetrics(model.id);
    expect(Object.keys(metrics)).toEqual(expect.arrayContaining(["val/loss", "val/base_loss", "val/accuracy", "val/base_accuracy", "val/best_epoch", "train/epochs"]));
    // The checkpoint keeps the best epoch's weights: its val/loss is the lowest of the epochs'.
    expect(metrics["val/loss"]).toBeCloseTo(Math.min(steps[1]["val/loss"] as number, steps[3]["val/loss"] as number, steps[5]["val/loss"] as number), 4);
    expect(job.sample_replies).toHaveLength(2);
    expect(job.sample_replies[0]).toMatchObject({ prompt: "say 20", expected: "ok 20", held_out: true });
  });

  it("refuses a checker without validation examples, two kinds of validation at once, and a pattern that does not compile (422 at the field)", async () => {
    const model = await createModel("refusals", "test/tiny");
    const base = { model_id: model.id, training_data: [echo(1), echo(2)] };
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...base, config: { validation_checker: { type: "exact_match" } } }, ["body", "config", "validation_checker"]],
      [{ ...base, validation_data: [echo(3)], config: { validation_fraction: 0.5 } }, ["body", "config", "validation_fraction"]],
      [{ ...base, config: { validation_fraction: 0.5, validation_checker: { type: "regex", pattern: "(" } } }, ["body", "config", "validation_checker", "pattern"]],
      [{ ...base, config: { epochs: 0 } }, ["body", "config", "epochs"]],
    ];
    for (const [body, loc] of cases) {
      const res = await submit(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((res.body as { detail: { loc: string[] }[] }).detail.map((d) => d.loc)).toContainEqual(loc);
    }
  });
});

describe("guard rails", () => {
  it("flags a job that wrecks the model (a far too high learning rate): succeeded, with warnings and replies before/after", async () => {
    const model = await createModel("wrecked", "anneal/tiny-chat");
    const job = await runJob({ model_id: model.id, training_data: tagged(5, "train", 16), config: { batch_size: 4, learning_rate: 0.1, validation_fraction: 0.25 } });
    expect(job.status).toBe("succeeded");
    expect(job.warnings.map((w) => w.code)).toContain("validation_loss_worse");
    expect(job.sample_replies).toHaveLength(4);
    for (const sample of job.sample_replies) expect(sample).toMatchObject({ held_out: true, before_ended: true });
    const metrics = await checkpointMetrics(model.id);
    expect(metrics["val/loss"]).toBeGreaterThan(metrics["val/base_loss"]);
  });

  it.each(["anneal/tiny-chat-2", "anneal/tiny-chat"])("a small job (40 examples) launched with the console's defaults on %s either learns the format or is flagged", async (base) => {
    const model = await createModel(`console-defaults-${base.split("/")[1]}`, base);
    const job = await runJob({ model_id: model.id, training_data: tagged(7, "train", 40), config: { ...CONSOLE_SFT_DEFAULTS } });
    expect(job.status).toBe("succeeded");
    const metrics = await checkpointMetrics(model.id);
    const codes = job.warnings.map((w) => w.code);
    // A degenerate reply is never shown without a warning beside it.
    const degenerate = job.sample_replies.filter((s) => !s.after_ended || /(.{2,})\1{3,}/.test(s.after));
    if (degenerate.length > 0) expect(codes.length).toBeGreaterThan(0);
    const learned = metrics["val/loss"] < metrics["val/base_loss"] / 2 && job.sample_replies.every((s) => s.after_ended && /^<answer>.*<\/answer>$/.test(s.after.trim()))
      && new Set(job.sample_replies.map((s) => s.after)).size > 1;
    console.info(`console defaults, 40 examples on ${base}: val/loss ${metrics["val/base_loss"].toFixed(3)} → ${metrics["val/loss"].toFixed(3)}, warnings [${codes.join(", ")}], after: ${job.sample_replies.map((s) => JSON.stringify(s.after)).join(" ")}`);
    expect(learned || codes.length > 0).toBe(true);
    // Replies that all say the same while the expected ones differ are flagged (the model answers every prompt alike).
    if (new Set(job.sample_replies.map((s) => s.after.trim())).size === 1) expect(codes).toContain("same_reply");
  });
});

describe("a small dataset (30 examples of bench:learn's SFT task)", () => {
  const heldout = sampleExamples({ families: ["arithmetic", "strings", "counting", "json"], split: "heldout", seed: 11, count: 32 });
  /** Greedy replies through the API: the share in the <answer>…</answer> format, and the share right (unwrapped). */
  async function measure(model: string): Promise<{ format: number; correct: number }> {
    let [format, correct] = [0, 0];
    for (const example of heldout) {
      const res = await json(api("POST", "/v1/chat/completions", { bearer: user.key, body: { model, messages: example.messages, max_tokens: 32, temperature: 0 } }));
      const choice = chatCompletionSchema.parse(res.body).choices[0];
      const text = (choice.message.content ?? "").trim();
      const inner = /^<answer>([\s\S]*)<\/answer>$/.exec(text);
      const ended = choice.finish_reason === "stop";
      if (ended && inner) format++;
      if (ended && example.check(inner ? inner[1] : text)) correct++;
    }
    return { format: format / heldout.length, correct: correct / heldout.length };
  }
  const fell = /^Correct answers fell from \d+% to \d+% on 32 held-out prompts of anneal\/tiny-chat-3's curriculum: the starting weights answered \d+ of 32 right, the checkpoint \d+\./;

  // Issue #29's bar, on the default base (tiny-chat-3, pretrained on reply formats): the console's
  // defaults take the format and keep what the base knew; the same job at tiny-chat-2's old 3e-3 is flagged.
  it.each<[string, "keeps" | "flagged", string, Record<string, number>]>([
    ["the console's defaults", "keeps", "small-console", { epochs: CONSOLE_SFT_DEFAULTS.epochs, validation_fraction: CONSOLE_SFT_DEFAULTS.validation_fraction }],
    ["3 epochs at 3e-3", "flagged", "small-3e-3", { epochs: 3, validation_fraction: 0.1, learning_rate: 3e-3 }],
  ])("30 examples with %s on the default base: the job %s the base's correct answers (takes the format within 10 points, or says they fell)", async (what, outcome, name, config) => {
    const model = await createModel(name, TINY_CHAT_3.name);
    const before = await measure(TINY_CHAT_3.name);
    const job = await runJob({ model_id: model.id, training_data: tagged(2000, "train", 30), config });
    expect(job.status, job.error ?? "").toBe("succeeded");
    const after = await measure(`${user.username}/sft-guard/${name}`);
    const metrics = await checkpointMetrics(model.id);
    const warning = job.warnings.find((w) => w.code === "correct_answers_dropped");
    console.info(`${what}, 30 examples on tiny-chat-3: in format ${before.format} → ${after.format}, correct ${before.correct} → ${after.correct}; probe ${metrics["probe/base_correct"]} → ${metrics["probe/correct"]}; warnings [${job.warnings.map((w) => w.code).join(", ")}]`);
    expect(metrics["probe/base_correct"]).toBeGreaterThan(0.5);
    if (outcome === "keeps") {
      expect(after.format).toBeGreaterThanOrEqual(0.9);
      expect(after.correct).toBeGreaterThanOrEqual(before.correct - 0.1);
      expect(warning).toBeUndefined();
    } else {
      expect(after.correct).toBeLessThan(before.correct - 0.1);
      expect(warning?.message).toMatch(fell);
    }
  }, 300_000);
});
