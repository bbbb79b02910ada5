// The load average (1, 5 and 15 minutes) to two decimals: benchmarks print it before and after, as
// the machine they run on may be shared.
import os from "node:os";

export const loadAverage = (): number[] => os.loadavg().map((l) => Number(l.toFixed(2)));
