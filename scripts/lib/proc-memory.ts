// A process's memory as Linux reports it in /proc/<pid>/status: VmRSS (resident now) and VmHWM (the
// peak resident set, "high water mark"), in bytes; undefined where there is no /proc.
import fs from "node:fs";

export function procMemory(pid: number | "self", field: "VmRSS" | "VmHWM"): number | undefined {
  try {
    const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return kb ? Number(kb[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
