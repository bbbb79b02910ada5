// How the Feedback stats tab writes times and values: in the timezone the buckets are aligned to,
// so a day bucket reads as the local day it is.

/** A bucket's start for an axis: the day for day-long (or longer) buckets, else day and time. */
export function bucketTick(iso: string, timezone: string, granularity: number): string {
  const options: Intl.DateTimeFormatOptions =
    granularity >= 86_400 ? { month: "short", day: "numeric" } : { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  return new Date(iso).toLocaleString("en", { ...options, timeZone: timezone });
}

/** A moment in full, with the zone's abbreviation: `Mar 8, 2026, 03:00 EDT`. */
export function fullTime(iso: string, timezone: string): string {
  return new Date(iso).toLocaleString("en", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
    timeZone: timezone,
    timeZoneName: "short",
  });
}

const value = new Intl.NumberFormat("en", { maximumSignificantDigits: 4 });

/** A stat's value; a dash where a bucket or window had nothing to aggregate. */
export const statValue = (v: unknown) => (typeof v === "number" ? value.format(v) : "—");

const GRANULARITY_UNITS: [number, string][] = [
  [86_400, "day"],
  [3_600, "hour"],
  [60, "minute"],
  [1, "second"],
];

/** `1 hour`, `6 hours`, `90 seconds`: the largest unit that divides the granularity. */
export function granularityLabel(seconds: number): string {
  const [size, unit] = GRANULARITY_UNITS.find(([size]) => seconds % size === 0) ?? [1, "second"];
  const n = seconds / size;
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

