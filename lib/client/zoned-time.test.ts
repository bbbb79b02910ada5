import { describe, expect, it } from "vitest";
import { fromWallTime, wallTime } from "./zoned-time";

describe("wallTime / fromWallTime", () => {
  it("round-trips a zone's wall time, half-hour zones included", () => {
    expect(fromWallTime("2026-01-01T00:00", "Asia/Kolkata")).toBe("2025-12-31T18:30:00.000Z");
    expect(wallTime("2025-12-31T18:30:00.000Z", "Asia/Kolkata")).toBe("2026-01-01T00:00");
    expect(fromWallTime("2026-06-01T12:00", "UTC")).toBe("2026-06-01T12:00:00.000Z");
    expect(fromWallTime("2026-07-04T09:15", "America/New_York")).toBe("2026-07-04T13:15:00.000Z");
  });

  it("takes the hour before a skipped wall time and the first of a repeated one (America/New_York)", () => {
    expect(fromWallTime("2026-03-08T03:30", "America/New_York")).toBe("2026-03-08T07:30:00.000Z");
    expect(fromWallTime("2026-03-08T02:30", "America/New_York")).toBe("2026-03-08T06:30:00.000Z");
    expect(fromWallTime("2026-11-01T01:30", "America/New_York")).toBe("2026-11-01T05:30:00.000Z");
  });

  it("is undefined for text that is not a wall time", () => {
    expect(fromWallTime("", "UTC")).toBeUndefined();
    expect(fromWallTime("yesterday", "UTC")).toBeUndefined();
  });
});
