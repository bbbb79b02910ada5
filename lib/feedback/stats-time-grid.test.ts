import { describe, expect, it } from "vitest";
import { autoGranularity, bucketStarts, isKnownTimeZone, MAX_BUCKETS, timeGrid, utcOffsetMs } from "./stats-time-grid";

// Bucket starts computed by hand from the zones' rules (tzdb): New York leaves EST (-5) for EDT (-4)
// at 2024-03-10 02:00 local (07:00Z) and returns at 2024-11-03 02:00 EDT (06:00Z); Kolkata is
// +5:30 all year; Havana's clocks change at midnight (2024-03-10 00:00 CST → 01:00 CDT, 05:00Z)
// and back at 2024-11-03 01:00 CDT → 00:00 CST (05:00Z).

const iso = (ms: number[]) => ms.map((t) => new Date(t).toISOString().replace(".000Z", "Z"));
const at = (text: string) => Date.parse(text);
const starts = (start: string, end: string, granularity: number, zone: string) => iso(bucketStarts(at(start), at(end), granularity, zone));

describe("bucketStarts in America/New_York", () => {
  it("hourly across spring forward: 01:00 EST then 03:00 EDT, each an hour", () => {
    expect(starts("2024-03-10T04:30:00Z", "2024-03-10T09:00:00Z", 3600, "America/New_York")).toEqual([
      "2024-03-10T04:00:00Z", "2024-03-10T05:00:00Z", "2024-03-10T06:00:00Z", "2024-03-10T07:00:00Z", "2024-03-10T08:00:00Z",
    ]);
  });

  it("hourly across fall back: the repeated 01:00 is a bucket of its own", () => {
    expect(starts("2024-11-03T03:00:00Z", "2024-11-03T08:00:00Z", 3600, "America/New_York")).toEqual([
      "2024-11-03T03:00:00Z", "2024-11-03T04:00:00Z", "2024-11-03T05:00:00Z", "2024-11-03T06:00:00Z", "2024-11-03T07:00:00Z",
    ]);
  });

  it("half-hourly across spring forward: the skipped 02:00 and 02:30 start no bucket", () => {
    expect(starts("2024-03-10T06:00:00Z", "2024-03-10T08:00:00Z", 1800, "America/New_York")).toEqual([
      "2024-03-10T06:00:00Z", "2024-03-10T06:30:00Z", "2024-03-10T07:00:00Z", "2024-03-10T07:30:00Z",
    ]);
  });

  it("six-hourly at local 00, 06, 12, 18: the night of spring forward is 5 h, of fall back 7 h", () => {
    expect(starts("2024-03-10T05:00:00Z", "2024-03-10T17:00:00Z", 21_600, "America/New_York")).toEqual([
      "2024-03-10T05:00:00Z", "2024-03-10T10:00:00Z", "2024-03-10T16:00:00Z",
    ]);
    expect(starts("2024-11-03T04:00:00Z", "2024-11-03T18:00:00Z", 21_600, "America/New_York")).toEqual([
      "2024-11-03T04:00:00Z", "2024-11-03T11:00:00Z", "2024-11-03T17:00:00Z",
    ]);
  });

  it("days start at local midnight: 23 h on 2024-03-10, 25 h on 2024-11-03", () => {
    expect(starts("2024-03-09T12:00:00Z", "2024-03-11T12:00:00Z", 86_400, "America/New_York")).toEqual([
      "2024-03-09T05:00:00Z", "2024-03-10T05:00:00Z", "2024-03-11T04:00:00Z",
    ]);
    expect(starts("2024-11-02T12:00:00Z", "2024-11-04T12:00:00Z", 86_400, "America/New_York")).toEqual([
      "2024-11-02T04:00:00Z", "2024-11-03T04:00:00Z", "2024-11-04T05:00:00Z",
    ]);
  });

  it("7-day buckets start on Monday at local midnight", () => {
    // 2024-11-04 is a Monday (00:00 EST = 05:00Z); the week before began 2024-10-28 00:00 EDT.
    expect(starts("2024-11-01T00:00:00Z", "2024-11-12T00:00:00Z", 7 * 86_400, "America/New_York")).toEqual([
      "2024-10-28T04:00:00Z", "2024-11-04T05:00:00Z", "2024-11-11T05:00:00Z",
    ]);
  });
});

describe("bucketStarts elsewhere", () => {
  it("Asia/Kolkata (+05:30): hours start at :30 UTC, days at 18:30 UTC", () => {
    expect(starts("2024-01-01T00:10:00Z", "2024-01-01T02:00:00Z", 3600, "Asia/Kolkata")).toEqual([
      "2023-12-31T23:30:00Z", "2024-01-01T00:30:00Z", "2024-01-01T01:30:00Z",
    ]);
    expect(starts("2024-01-01T00:10:00Z", "2024-01-02T20:00:00Z", 86_400, "Asia/Kolkata")).toEqual([
      "2023-12-31T18:30:00Z", "2024-01-01T18:30:00Z", "2024-01-02T18:30:00Z",
    ]);
  });

  it("UTC is plain flooring", () => {
    expect(starts("2024-01-01T00:07:00Z", "2024-01-01T00:20:00Z", 300, "UTC")).toEqual([
      "2024-01-01T00:05:00Z", "2024-01-01T00:10:00Z", "2024-01-01T00:15:00Z",
    ]);
  });

  it("America/Havana: a day whose midnight is skipped starts at the jump; a repeated midnight starts one day", () => {
    expect(starts("2024-03-09T12:00:00Z", "2024-03-11T12:00:00Z", 86_400, "America/Havana")).toEqual([
      "2024-03-09T05:00:00Z", "2024-03-10T05:00:00Z", "2024-03-11T04:00:00Z",
    ]);
    expect(starts("2024-11-02T12:00:00Z", "2024-11-04T12:00:00Z", 86_400, "America/Havana")).toEqual([
      "2024-11-02T04:00:00Z", "2024-11-03T04:00:00Z", "2024-11-04T05:00:00Z",
    ]);
    // Hourly, the repeated midnight is two buckets, as New York's repeated 01:00.
    expect(starts("2024-11-03T03:00:00Z", "2024-11-03T07:00:00Z", 3600, "America/Havana")).toEqual([
      "2024-11-03T03:00:00Z", "2024-11-03T04:00:00Z", "2024-11-03T05:00:00Z", "2024-11-03T06:00:00Z",
    ]);
  });
});

describe("granularity", () => {
  it("auto: ≤2h → 300, ≤12h → 3600, ≤3d → 21600, ≤14d → 43200, else 86400", () => {
    const cases: [number, number][] = [
      [60, 300], [7200, 300], [7201, 3600], [43_200, 3600], [43_201, 21_600],
      [259_200, 21_600], [259_201, 43_200], [1_209_600, 43_200], [1_209_601, 86_400], [365 * 86_400, 86_400],
    ];
    for (const [range, granularity] of cases) expect([range, autoGranularity(range)]).toEqual([range, granularity]);
  });

  it("more than 10,000 buckets raises the granularity as Weave does: floor(range / 10,000) + 1", () => {
    const grid = timeGrid(at("2024-10-01T00:00:00Z"), at("2024-10-31T00:00:00Z"), 60, "UTC");
    expect(grid.granularity).toBe(260); // 2,592,000 s / 10,000 = 259.2
    expect(grid.starts.length).toBe(9970);
  });

  it("one bucket too many from alignment raises it further", () => {
    // 10,000 minutes from a start 30 s past the minute touch 10,001 minute buckets.
    const start = at("2024-01-01T00:00:30Z");
    expect(bucketStarts(start, start + MAX_BUCKETS * 60_000, 60, "UTC")).toHaveLength(MAX_BUCKETS + 1);
    const grid = timeGrid(start, start + MAX_BUCKETS * 60_000, 60, "UTC");
    expect(grid.granularity).toBe(61);
    expect(grid.starts.length).toBeLessThanOrEqual(MAX_BUCKETS);
  });
});

describe("zones", () => {
  it("knows IANA names and UTC, not offsets or nonsense", () => {
    for (const zone of ["UTC", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Etc/GMT+5"]) expect(isKnownTimeZone(zone)).toBe(true);
    for (const zone of ["Mars/Olympus", "+05:30", "", "America/New York", "../etc"]) expect(isKnownTimeZone(zone)).toBe(false);
  });

  it("reads offsets with minutes and seconds", () => {
    expect(utcOffsetMs("Asia/Kathmandu", at("2024-01-01T00:00:00Z"))).toBe((5 * 60 + 45) * 60_000);
    expect(utcOffsetMs("UTC", 0)).toBe(0);
    expect(utcOffsetMs("America/New_York", at("1880-01-01T00:00:00Z"))).toBe(-(4 * 3600 + 56 * 60 + 2) * 1000);
  });
});
