import { describe, expect, it } from "vitest";
import { formatDuration, progressLine } from "./progress-line";

describe("progressLine", () => {
  it("shows bar, step, loss, throughput and ETA", () => {
    expect(progressLine({ step: 50, totalSteps: 200, loss: 1.23456, tokensPerSecond: 2345.6, etaSeconds: 3725 })).toBe(
      "[######..................] step 50/200 loss 1.235 2,346 tok/s ETA 1:02:05",
    );
  });

  it("formats durations as m:ss or h:mm:ss", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(65.4)).toBe("1:05");
    expect(formatDuration(3600)).toBe("1:00:00");
  });
});
