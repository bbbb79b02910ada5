import { describe, expect, it } from "vitest";
import { metricFamilies, metricName, metricSplit, metricSplits, type StepMetrics } from "@/lib/client/metric-series";

const steps: StepMetrics[] = [
  { step: 0, metrics: { "val/reward": 0.2, "val/correct": 0.5 } },
  { step: 1, metrics: { "train/loss": 1.2, "train/reward": 0.4, "val/accuracy": 0.6 } },
  { step: 2, metrics: { "train/reward": 0.5, "val/reward": 0.7, "test/reward": 0.6, zeta: 3 } },
];

describe("metricFamilies", () => {
  it("charts one metric per family, reward, accuracy and loss first, a line per split in train, val, test order", () => {
    const families = metricFamilies(steps);
    expect(families.map((f) => [f.name, f.keys])).toEqual([
      ["reward", ["train/reward", "val/reward", "test/reward"]],
      ["accuracy", ["val/accuracy"]],
      ["loss", ["train/loss"]],
      ["correct", ["val/correct"]],
      ["zeta", ["zeta"]],
    ]);
    // Only the steps that have one of the family's keys, with just those keys.
    expect(families[0].points).toEqual([
      { step: 0, "val/reward": 0.2 },
      { step: 1, "train/reward": 0.4 },
      { step: 2, "train/reward": 0.5, "val/reward": 0.7, "test/reward": 0.6 },
    ]);
  });

  it("splits a key at its first slash and lists the splits present", () => {
    expect([metricName("val/judge/score"), metricSplit("val/judge/score")]).toEqual(["judge/score", "val"]);
    expect([metricName("loss"), metricSplit("loss")]).toEqual(["loss", ""]);
    expect(metricSplits(steps)).toEqual(["train", "val", "test"]);
  });
});
