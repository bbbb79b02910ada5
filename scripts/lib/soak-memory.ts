import fs from "node:fs";
import path from "node:path";

// bench:soak's memory watch: the resident set of the processes never killed (read from /proc every
// few seconds) and their V8 heaps (the main thread's and every worker thread's together) after a
// full collection (written by memory-probe.mjs, loaded into them), each as a least-squares slope
// after the warm-up. The heaps' slope tells a leak in JavaScript; a resident set that grows while
// the heaps do not is native memory or the allocator.

export const MEMORY_PROBE = path.resolve(import.meta.dirname, "memory-probe.mjs");

export interface Sample {
  /** Seconds since the load began. */
  s: number;
  mb: number;
}

export interface MemoryGrowth {
  warmMb: number;
  endMb: number;
  mbPerHour: number;
  /** Seconds of samples after the warm-up. */
  seconds: number;
}

/** The least-squares slope of (seconds, MB), in MB per hour. */
export function mbPerHour(samples: Sample[]): number {
  const n = samples.length;
  const mx = samples.reduce((a, p) => a + p.s, 0) / n;
  const my = samples.reduce((a, p) => a + p.mb, 0) / n;
  const sxy = samples.reduce((a, p) => a + (p.s - mx) * (p.mb - my), 0);
  const sxx = samples.reduce((a, p) => a + (p.s - mx) ** 2, 0);
  return sxx > 0 ? (sxy / sxx) * 3600 : 0;
}

/** Growth over the samples from `warmUpSeconds` on. */
export function growth(samples: Sample[], warmUpSeconds: number): MemoryGrowth {
  const warm = samples.filter((p) => p.s >= warmUpSeconds && Number.isFinite(p.mb));
  return {
    warmMb: Math.round(warm[0]?.mb ?? NaN),
    endMb: Math.round(warm.at(-1)?.mb ?? NaN),
    mbPerHour: Math.round(warm.length > 1 ? mbPerHour(warm) : 0),
    seconds: warm.length > 1 ? Math.round(warm.at(-1)!.s - warm[0].s) : 0,
  };
}

/** The V8 heaps after a full collection that memory-probe.mjs wrote for process `pid`, as seconds
 *  since `loadStartedAt` (epoch ms); empty when it wrote nothing. */
export function heapSamples(probeDir: string, pid: number | undefined, loadStartedAt: number): Sample[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(probeDir, `${pid}.jsonl`), "utf8");
  } catch {
    return [];
  }
  return text.split("\n").filter(Boolean).map((line) => {
    const { at, heapUsed, threadsHeapUsed } = JSON.parse(line) as { at: number; heapUsed: number; threadsHeapUsed: number };
    return { s: (at - loadStartedAt) / 1000, mb: (heapUsed + threadsHeapUsed) / 2 ** 20 };
  });
}
