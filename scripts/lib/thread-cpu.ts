import fs from "node:fs";

// CPU time of this process's threads, read from /proc (Linux): the main thread (the web server's
// event loop) apart from all the others (the engine thread, llama.cpp's decodes on the libuv pool,
// V8's helpers). Both are read over the same seconds, so their ratio holds while the speed of a
// shared machine drifts, which a throughput measured a second later does not.

export interface ThreadCpu {
  mainMs: number;
  otherMs: number;
}

/** /proc reports CPU time in USER_HZ ticks, 100 a second on Linux. */
const MS_PER_TICK = 10;

function ticks(stat: string): number {
  // utime and stime are fields 14 and 15; the command name before them may contain spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** The process's CPU so far, by thread group; undefined where /proc has no per-thread times. */
export function threadCpu(): ThreadCpu | undefined {
  let tasks: string[];
  try {
    tasks = fs.readdirSync("/proc/self/task");
  } catch {
    return undefined;
  }
  const cpu: ThreadCpu = { mainMs: 0, otherMs: 0 };
  for (const tid of tasks) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    } catch {
      continue; // the thread ended since the listing
    }
    if (tid === String(process.pid)) cpu.mainMs += ticks(stat) * MS_PER_TICK;
    else cpu.otherMs += ticks(stat) * MS_PER_TICK;
  }
  return cpu;
}

export function threadCpuSince(start: ThreadCpu | undefined): ThreadCpu | undefined {
  const now = threadCpu();
  return start && now && { mainMs: now.mainMs - start.mainMs, otherMs: now.otherMs - start.otherMs };
}
