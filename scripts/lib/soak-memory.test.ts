import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { growth, heapSamples } from "./soak-memory";

describe("bench:soak's memory growth", () => {
  it("is the slope after the warm-up only, in MB per hour", () => {
    // 300 MB gained in the first minute, then 1 MB a minute: 60 MB/hour after the warm-up.
    const samples = Array.from({ length: 41 }, (_, i) => ({ s: i * 15, mb: i * 15 < 60 ? 100 + i * 75 : 400 + (i * 15 - 60) / 60 }));
    expect(growth(samples, 60)).toEqual({ warmMb: 400, endMb: 409, mbPerHour: 60, seconds: 540 });
  });

  it("reads the V8 heaps as the main thread's and the worker threads' together, from the load's start", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "soak-memory-"));
    try {
      const line = (at: number, heapUsed: number, threadsHeapUsed: number) => JSON.stringify({ at, heapUsed, threadsHeapUsed });
      fs.writeFileSync(path.join(dir, "42.jsonl"), `${line(10_000, 100 * 2 ** 20, 20 * 2 ** 20)}\n${line(30_000, 101 * 2 ** 20, 21 * 2 ** 20)}\n`);
      expect(heapSamples(dir, 42, 10_000)).toEqual([{ s: 0, mb: 120 }, { s: 20, mb: 122 }]);
      expect(heapSamples(dir, 43, 10_000)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
