import { describe, expect, it } from "vitest";
import { cellCover, cellsAnswer } from "./stats-cover";
import { bucketStarts } from "./stats-time-grid";

const t = (iso: string) => Date.parse(iso);
const spans = (cover: ReturnType<typeof cellCover>) => ({
  cells: cover.cells.map((s) => [s.level, new Date(s.from).toISOString(), new Date(s.to).toISOString()]),
  raw: cover.raw.map((s) => [new Date(s.from).toISOString(), new Date(s.to).toISOString()]),
});

describe("cellCover", () => {
  it("reads whole hours as hours, across buckets as one range", () => {
    const [start, end] = [t("2024-05-01T22:00:00Z"), t("2024-05-04T02:00:00Z")];
    expect(spans(cellCover(bucketStarts(start, end, 86_400, "UTC"), start, end))).toEqual({
      cells: [[3600, "2024-05-01T22:00:00.000Z", "2024-05-04T02:00:00.000Z"]],
      raw: [],
    });
  });

  it("reads the unaligned edges of the range from the rows", () => {
    const [start, end] = [t("2024-05-01T00:07:00Z"), t("2024-05-01T02:50:00Z")];
    expect(spans(cellCover(bucketStarts(start, end, 3600, "UTC"), start, end))).toEqual({
      cells: [
        [3600, "2024-05-01T01:00:00.000Z", "2024-05-01T02:00:00.000Z"],
        [900, "2024-05-01T00:15:00.000Z", "2024-05-01T01:00:00.000Z"],
        [900, "2024-05-01T02:00:00.000Z", "2024-05-01T02:45:00.000Z"],
      ],
      raw: [["2024-05-01T00:07:00.000Z", "2024-05-01T00:15:00.000Z"], ["2024-05-01T02:45:00.000Z", "2024-05-01T02:50:00.000Z"]],
    });
  });

  it("covers Kathmandu's hours (+05:45) with 15-minute cells, and nothing of 7-minute buckets", () => {
    const [start, end] = [t("2024-05-01T00:15:00Z"), t("2024-05-01T01:15:00Z")];
    expect(spans(cellCover(bucketStarts(start, end, 3600, "Asia/Kathmandu"), start, end)).cells).toEqual([[900, "2024-05-01T00:15:00.000Z", "2024-05-01T01:15:00.000Z"]]);
    expect(cellCover(bucketStarts(start, end, 420, "UTC"), start, end)).toEqual({ cells: [], raw: [{ from: start, to: end }] });
  });

  it("reads a zone's local days (New York) as UTC hours: no UTC day fits inside one", () => {
    const [start, end] = [t("2024-05-01T04:00:00Z"), t("2024-05-03T04:00:00Z")];
    expect(spans(cellCover(bucketStarts(start, end, 86_400, "America/New_York"), start, end))).toEqual({
      cells: [[3600, "2024-05-01T04:00:00.000Z", "2024-05-03T04:00:00.000Z"]],
      raw: [],
    });
  });

  it("leaves a request to the rows when they would be more than a tenth of it", () => {
    const [start, end] = [t("2024-05-01T00:07:00Z"), t("2024-05-01T02:50:00Z")];
    const cover = cellCover(bucketStarts(start, end, 3600, "UTC"), start, end);
    expect(cellsAnswer(cover, start, end)).toBe(true); // 13 of 163 minutes
    const short = cellCover(bucketStarts(start, t("2024-05-01T00:35:00Z"), 3600, "UTC"), start, t("2024-05-01T00:35:00Z"));
    expect(cellsAnswer(short, start, t("2024-05-01T00:35:00Z"))).toBe(false); // 13 of 28
  });
});
