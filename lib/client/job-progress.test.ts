import { describe, expect, it } from "vitest";
import { chartedMetrics, estimateRemainingMs, formatDuration, gradientSteps, groupsToRlInput, jobDurationMs, servedLogRatio, type FeedEvent } from "./job-progress";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const step = (id: string, s: number, data: Record<string, unknown>): FeedEvent => ({ id, type: "gradient_step", data, created_at: at(s) });

describe("gradientSteps / chartedMetrics", () => {
  it("numbers the gradient steps, keeps finite numbers only, and charts the metrics that appear", () => {
    const events: FeedEvent[] = [
      { id: "a", type: "training_started", data: { num_sequences: 2 }, created_at: at(0) },
      step("b", 2, { step: 1, loss: 2.5, grad_norm: 1, note: "x" }),
      step("c", 4, { step: 2, loss: 2.0, grad_norm: 0.5, entropy: 1.2 }),
      { id: "d", type: "training_ended", data: {}, created_at: at(5) },
    ];
    const points = gradientSteps(events);
    expect(points).toEqual([
      { step: 1, at: Date.parse(at(2)), loss: 2.5, grad_norm: 1 },
      { step: 2, at: Date.parse(at(4)), loss: 2.0, grad_norm: 0.5, entropy: 1.2 },
    ]);
    expect(chartedMetrics(points)).toEqual(["loss", "entropy", "grad_norm"]);
  });
});

describe("servedLogRatio", () => {
  it("is the first step's served_abs_log_ratio, high above 0.02, and null when no step reports one", () => {
    const points = (first: Record<string, unknown>) => gradientSteps([step("a", 1, { step: 1, loss: 1, ...first }), step("b", 2, { step: 2, loss: 1 })]);
    expect(servedLogRatio(points({ served_abs_log_ratio: 0.018 }))).toEqual({ value: 0.018, high: false });
    expect(servedLogRatio(points({ served_abs_log_ratio: 0.02 }))).toEqual({ value: 0.02, high: false });
    expect(servedLogRatio(points({ served_abs_log_ratio: 0.05 }))).toEqual({ value: 0.05, high: true });
    expect(servedLogRatio(points({}))).toBeNull();
  });
});

describe("estimateRemainingMs", () => {
  const points = gradientSteps([step("a", 2, { loss: 1 }), step("b", 4, { loss: 1 })]);
  it("is the mean step time since the start times the steps left, less the time since the last step", () => {
    const job = { status: "running", started_at: at(0), num_sequences: 10, steps_done: 2 };
    expect(estimateRemainingMs(job, points, Date.parse(at(4)))).toBe(8 * 2000);
    expect(estimateRemainingMs(job, points, Date.parse(at(5)))).toBe(8 * 2000 - 1000);
  });
  it("is null before the first step or when the job is not running, 0 when every step is done", () => {
    expect(estimateRemainingMs({ status: "running", started_at: at(0), num_sequences: 10, steps_done: 0 }, [], 0)).toBeNull();
    expect(estimateRemainingMs({ status: "succeeded", started_at: at(0), num_sequences: 2, steps_done: 2 }, points, 0)).toBeNull();
    expect(estimateRemainingMs({ status: "running", started_at: at(0), num_sequences: 2, steps_done: 2 }, points, 0)).toBe(0);
  });
});

describe("durations", () => {
  it("formats from milliseconds to hours", () => {
    expect([850, 12_400, 184_000, 180_000, 7_500_000].map(formatDuration)).toEqual(["850 ms", "12 s", "3 min 4 s", "3 min", "2 h 5 min"]);
  });
  it("measures a job from its start to its end (or now)", () => {
    expect(jobDurationMs({ started_at: null, finished_at: null }, 0)).toBeNull();
    expect(jobDurationMs({ started_at: at(1), finished_at: at(4) }, 0)).toBe(3000);
    expect(jobDurationMs({ started_at: at(1), finished_at: null }, Date.parse(at(2)))).toBe(1000);
  });
});

describe("launch bodies", () => {
  it("keeps what RL trains on from logged groups", () => {
    const trajectory = { messages_and_choices: [{ role: "user", content: "q" }], reward: 1, metrics: { a: 1 }, tools: null, additional_histories: [] };
    expect(groupsToRlInput([{ trajectories: [trajectory] }])).toEqual([{ trajectories: [{ messages_and_choices: trajectory.messages_and_choices, reward: 1 }] }]);
    const thinkingOff = { ...trajectory, chat_template_kwargs: { enable_thinking: false } };
    expect(groupsToRlInput([{ trajectories: [thinkingOff] }])[0].trajectories[0]).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
  });
});
