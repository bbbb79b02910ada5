// The time buckets of POST /feedback/stats: the granularity (given, or chosen from the range, raised
// to stay within MAX_BUCKETS) and each bucket's start, floored in an IANA zone's wall time.
//
// A bucket starts each time the zone's clock shows (or jumps past) a multiple of the granularity
// counted from local midnight of Monday 1970-01-05, so hourly buckets start on the local hour, day
// buckets at local midnight and 7-day buckets on Monday midnight. Across a DST change:
// - clocks go forward: the skipped wall times start no bucket (New York, 2024-03-10, hourly:
//   01:00 EST then 03:00 EDT, each an hour long; a day bucket lasts 23 h);
// - clocks go back: under a day, each time the clock shows a bucket start counts, so the repeated
//   hour is a bucket of its own (01:00 EDT and 01:00 EST: two hourly buckets of one hour each);
//   for a day or more only the first time counts (a day bucket starts at the first local midnight
//   and lasts 25 h).
// Buckets are consecutive intervals of real time; the SQL places each row by binary search over
// their starts (width_bucket), so no time zone arithmetic runs per row.

export const MAX_BUCKETS = 10_000;
export const DAY_SECONDS = 86_400;
const SECOND_MS = 1000;
const DAY_MS = DAY_SECONDS * SECOND_MS;
/** Local midnight of Monday 1970-01-05, as wall-clock milliseconds. */
const GRID_ORIGIN_MS = Date.UTC(1970, 0, 5);

/** Weave's table (and /calls/stats'): the range's length in seconds → seconds per bucket. */
const AUTO_GRANULARITY: [maxRangeSeconds: number, granularity: number][] = [
  [2 * 3600, 300],
  [12 * 3600, 3600],
  [3 * DAY_SECONDS, 21_600],
  [14 * DAY_SECONDS, 43_200],
];

export function autoGranularity(rangeSeconds: number): number {
  return AUTO_GRANULARITY.find(([max]) => rangeSeconds <= max)?.[1] ?? DAY_SECONDS;
}

/** By zone name as asked; bounded, as names are matched case-insensitively (any spelling is a new key). */
const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const MAX_CACHED_ZONES = 1000;

function offsetFormat(timeZone: string): Intl.DateTimeFormat {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    if (offsetFormats.size >= MAX_CACHED_ZONES) offsetFormats.clear();
    offsetFormats.set(timeZone, format);
  }
  return format;
}

/** Whether `timeZone` is an IANA zone name this runtime knows (`UTC` included; offsets such as
 *  `+05:30` are not zone names). */
export function isKnownTimeZone(timeZone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timeZone)) return false;
  try {
    offsetFormat(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's UTC offset at an instant, in milliseconds (wall = instant + offset). */
export function utcOffsetMs(timeZone: string, instantMs: number): number {
  // "1/4/1970, GMT-05:00", "…, GMT+05:45", "…, GMT" (zero), "…, GMT-04:56:02" (local mean time)
  const match = /GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(offsetFormat(timeZone).format(instantMs));
  if (!match) throw new Error(`unexpected offset format for ${timeZone}`);
  if (!match[1]) return 0;
  const ms = ((Number(match[2]) * 60 + Number(match[3])) * 60 + Number(match[4] ?? 0)) * SECOND_MS;
  return match[1] === "-" ? -ms : ms;
}

const wallMs = (timeZone: string, instantMs: number) => instantMs + utcOffsetMs(timeZone, instantMs);

/**
 * The instants at which the clock shows `wall` (two when clocks go back over it), or, when clocks
 * jump over it, the instant of the jump. Offsets are read a day either side of it, as Temporal
 * does: no zone changes its offset twice within two days.
 */
function instantsShowing(timeZone: string, wall: number): number[] {
  const before = utcOffsetMs(timeZone, wall - DAY_MS);
  const after = utcOffsetMs(timeZone, wall + DAY_MS);
  const shown = [...new Set([wall - before, wall - after])].filter((t) => wallMs(timeZone, t) === wall).sort((a, b) => a - b);
  if (shown.length > 0) return shown;
  // In the gap: the offset changes from `before` to `after` between these two instants.
  let [lo, hi] = [wall - after, wall - before];
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (utcOffsetMs(timeZone, mid) === before) lo = mid;
    else hi = mid;
  }
  return [hi];
}

/**
 * The start of every bucket from the one containing `startMs` to the last one starting before
 * `endMs`, ascending (epoch milliseconds).
 */
export function bucketStarts(startMs: number, endMs: number, granularitySeconds: number, timeZone: string): number[] {
  const step = granularitySeconds * SECOND_MS;
  const firstWall = GRID_ORIGIN_MS + Math.floor((wallMs(timeZone, startMs) - GRID_ORIGIN_MS) / step) * step;
  const starts = new Set<number>();
  // From one step before the start's own, so the bucket containing the start is always listed.
  for (let wall = firstWall - step; ; wall += step) {
    const instants = instantsShowing(timeZone, wall);
    if (instants[0] >= endMs) break;
    for (const t of granularitySeconds < DAY_SECONDS ? instants : instants.slice(0, 1)) starts.add(t);
  }
  const sorted = [...starts].sort((a, b) => a - b);
  const first = sorted.findLastIndex((t) => t <= startMs);
  if (first < 0) throw new Error(`no bucket of ${granularitySeconds} s in ${timeZone} contains ${new Date(startMs).toISOString()}`);
  return sorted.slice(first).filter((t) => t < endMs);
}

export interface TimeGrid {
  granularity: number;
  /** Bucket starts, ascending, epoch milliseconds. */
  starts: number[];
}

/**
 * The buckets of [start, end): the requested granularity or the automatic one, raised as Weave
 * does when the range holds more than MAX_BUCKETS of it, and further if DST or alignment still
 * leave one bucket too many.
 */
export function timeGrid(startMs: number, endMs: number, requested: number | undefined, timeZone: string): TimeGrid {
  const rangeSeconds = (endMs - startMs) / SECOND_MS;
  let granularity = requested ?? autoGranularity(rangeSeconds);
  if (rangeSeconds / granularity > MAX_BUCKETS) granularity = Math.max(granularity, Math.floor(rangeSeconds / MAX_BUCKETS) + 1);
  for (;;) {
    const starts = bucketStarts(startMs, endMs, granularity, timeZone);
    if (starts.length <= MAX_BUCKETS) return { granularity, starts };
    granularity += Math.max(1, Math.ceil((granularity * (starts.length - MAX_BUCKETS)) / MAX_BUCKETS));
  }
}
