import { describe, expect, it } from "vitest";
import type { CheckpointFeedbackRow } from "@/lib/training/models/checkpoint-feedback-schema";
import { compareCheckpoints } from "./checkpoint-feedback";

const row = (step: number, rest: Partial<CheckpointFeedbackRow> = {}): CheckpointFeedbackRow => ({
  step, served_as: `t/p/m:step${step}`, checkpoint_exists: step > 0, calls: 0, judged_calls: 0, feedback: 0, thumbs_up: 0, thumbs_down: 0, thumbs_up_ratio: null, annotations: [], ...rest,
});

describe("compareCheckpoints", () => {
  const { specs, steps } = compareCheckpoints([
    row(0, { thumbs_up_ratio: 0.5, annotations: [{ spec: "score", mean: 3, count: 4 }] }),
    row(2, { thumbs_up_ratio: 0.75, annotations: [{ spec: "score", mean: 4, count: 2 }, { spec: "accuracy", mean: 0.9, count: 10 }] }),
    row(1),
    row(3, { annotations: [{ spec: "score", mean: 3.5, count: 1 }] }),
  ]);

  it("puts the newest step first, with a column per numeric spec any step has", () => {
    expect(specs).toEqual(["accuracy", "score"]);
    expect(steps.map((s) => s.row.step)).toEqual([3, 2, 1, 0]);
  });

  it("compares each number with the nearest older step that has one, skipping steps without", () => {
    const [s3, s2, s1, s0] = steps;
    expect(s3.means.score).toEqual({ value: 3.5, count: 1, change: { by: -0.5, from: 2 } });
    expect(s3.thumbsUpRatio).toBeNull();
    expect(s3.means.accuracy).toBeNull();
    expect(s2.thumbsUpRatio).toEqual({ value: 0.75, change: { by: 0.25, from: 0 } });
    expect(s2.means.score).toEqual({ value: 4, count: 2, change: { by: 1, from: 0 } });
    expect(s2.means.accuracy).toEqual({ value: 0.9, count: 10, change: null });
    expect(s1.means).toEqual({ accuracy: null, score: null });
    expect(s0.means.score?.change).toBeNull();
  });
});
