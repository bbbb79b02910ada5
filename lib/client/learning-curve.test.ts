import { describe, expect, it } from "vitest";
import { axisEnd, checkpointMetricLabel, checkpointOptions, curveFamilies, curveIsLive, curveSteps, jobSpans, keyMetric, spanAt, type LearningCurve } from "@/lib/client/learning-curve";

const SFT = "0192aaaa-0000-7000-8000-00000000a001";
const RL = "0192aaaa-0000-7000-8000-00000000b002";
const QUEUED = "0192aaaa-0000-7000-8000-00000000c003";
const CHECKPOINT = "0192aaaa-0000-7000-8000-0000000000c1";

const job = (id: string, kind: "rl" | "sft", status: "queued" | "running" | "succeeded", first: number, last: number, checkpoint: number | null) => ({
  id, kind, status, checkpoint_step: checkpoint, first_global_step: first, last_global_step: last, created_at: "2026-11-24T10:00:00.000Z", warnings: [],
});

// An SFT job of 3 steps (its checkpoint deleted), an RL job of 1, a queued one.
const curve: LearningCurve = {
  jobs: [job(SFT, "sft", "succeeded", 1, 3, 1), job(RL, "rl", "succeeded", 4, 4, 2), job(QUEUED, "sft", "queued", 5, 4, null)],
  gradient_steps: [
    { global_step: 1, job_id: SFT, metrics: { loss: 2 } },
    { global_step: 2, job_id: SFT, metrics: { loss: 1.5 } },
    { global_step: 3, job_id: SFT, metrics: { loss: 1.2, "val/loss": 1.4 } },
    { global_step: 4, job_id: RL, metrics: { loss: 0.1, reward: 0.7 } },
  ],
  model_steps: [
    { step: 0, global_step: 0, job_id: null, checkpoint_id: null, created_at: null, metrics: { "val/reward": 0.2 } },
    { step: 1, global_step: 3, job_id: SFT, checkpoint_id: null, created_at: null, metrics: { "val/loss": 1.3, "val/reward": 0.5 } },
    { step: 2, global_step: 4, job_id: RL, checkpoint_id: CHECKPOINT, created_at: "2026-11-24T10:05:00.000Z", metrics: { "train/reward": 0.7, "val/reward": 0.6 } },
  ],
};

describe("curveSteps / curveFamilies", () => {
  it("puts gradient steps and checkpoints on one axis, a checkpoint's numbers over its last step's", () => {
    expect(curveSteps(curve)).toEqual([
      { step: 0, metrics: { "val/reward": 0.2 } },
      { step: 1, metrics: { loss: 2 } },
      { step: 2, metrics: { loss: 1.5 } },
      { step: 3, metrics: { loss: 1.2, "val/loss": 1.3, "val/reward": 0.5 } },
      { step: 4, metrics: { loss: 0.1, reward: 0.7, "train/reward": 0.7, "val/reward": 0.6 } },
    ]);
  });

  it("charts one metric per family across its splits, reward first", () => {
    const families = curveFamilies(curve);
    expect(families.map((f) => [f.name, f.keys])).toEqual([
      ["reward", ["train/reward", "val/reward", "reward"]],
      ["loss", ["val/loss", "loss"]],
    ]);
    expect(families[0].points).toEqual([
      { step: 0, "val/reward": 0.2 },
      { step: 3, "val/reward": 0.5 },
      { step: 4, reward: 0.7, "train/reward": 0.7, "val/reward": 0.6 },
    ]);
  });
});

describe("jobSpans", () => {
  it("gives each job on the axis its band, labelled by kind and short id; queued jobs have none yet", () => {
    const spans = jobSpans(curve);
    expect(spans).toEqual([
      { id: SFT, label: "SFT · 0000a001", status: "succeeded", checkpointStep: 1, from: 0, to: 3 },
      { id: RL, label: "RL · 0000b002", status: "succeeded", checkpointStep: 2, from: 3, to: 4 },
    ]);
    expect(spanAt(spans, 3)?.id).toBe(SFT);
    expect(spanAt(spans, 4)?.id).toBe(RL);
    expect(spanAt(spans, 0)).toBeUndefined();
    expect(axisEnd(curve)).toBe(4);
    expect(axisEnd({ jobs: [], gradient_steps: [], model_steps: [] })).toBe(1);
  });

  it("is live while a job is queued or running", () => {
    expect(curveIsLive(curve)).toBe(true);
    expect(curveIsLive({ ...curve, jobs: curve.jobs.slice(0, 2) })).toBe(false);
    expect(curveIsLive(undefined)).toBe(false);
  });
});

describe("checkpointOptions", () => {
  it("lists servable checkpoints newest first with their job and key metric, then the base model", () => {
    expect(checkpointOptions(curve)).toEqual([
      { step: 2, createdAt: "2026-11-24T10:05:00.000Z", job: { id: RL, label: "RL · 0000b002", warnings: [] }, keyMetric: ["val/reward", 0.6] },
      { step: 0, createdAt: null, job: null, keyMetric: ["val/reward", 0.2] },
    ]);
  });

  it("names an SFT checkpoint's numbers for what they are: its best epoch's val/*, train/loss as the mean over the job's steps", () => {
    const sft = { "val/loss": 1.86, "val/base_loss": 3, "val/best_epoch": 2, "train/loss": 2.147, "train/epochs": 3 };
    const warned = { ...curve, jobs: [{ ...job(SFT, "sft", "succeeded", 1, 3, 1), warnings: [{ code: "correct_answers_dropped", message: "Correct answers fell" }] }],
      model_steps: [{ step: 1, global_step: 3, job_id: SFT, checkpoint_id: CHECKPOINT, created_at: null, metrics: sft }] };
    expect(checkpointOptions(warned)[0]).toMatchObject({ keyMetric: ["best epoch val/loss", 1.86], job: { warnings: [{ code: "correct_answers_dropped" }] } });
    expect(Object.keys(sft).map((key) => checkpointMetricLabel(key, sft))).toEqual(["best epoch val/loss", "val/base_loss", "val/best_epoch", "mean train/loss over the job's steps", "train/epochs"]);
    expect(checkpointMetricLabel("val/loss", { "val/loss": 1 })).toBe("val/loss");
  });

  it("picks held-out accuracy, then reward, then losses, then any metric by name", () => {
    expect(keyMetric({ "train/loss": 1, "val/accuracy": 0.8, "val/reward": 0.5 })).toEqual(["val/accuracy", 0.8]);
    expect(keyMetric({ "train/loss": 1, "train/reward": 0.3 })).toEqual(["train/reward", 0.3]);
    expect(keyMetric({ "train/num_examples": 8, "train/loss": 1 })).toEqual(["train/loss", 1]);
    expect(keyMetric({ zeta: 1, alpha: 2 })).toEqual(["alpha", 2]);
    expect(keyMetric({})).toBeNull();
  });
});
