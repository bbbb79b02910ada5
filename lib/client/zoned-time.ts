// Wall time in an IANA timezone <-> moments, for date-time inputs that mean a zone's local time
// (the browser's `datetime-local` only knows its own zone).

/** The wall time of a moment in a zone, as a `datetime-local` input holds it (`2026-03-08T03:00`). */
export function wallTime(iso: string, timezone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: timezone })
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The moment a zone's wall time (`2026-03-08T03:00`) names, as ISO 8601 UTC. A wall time that a
 *  DST change skips resolves to the hour before it; one it repeats, to its first occurrence. */
export function fromWallTime(wall: string, timezone: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(wall)) return undefined;
  const asUtc = Date.parse(`${wall}:00Z`);
  // The zone's offset at a guess, twice: the second guess lands on the right side of a DST change.
  let moment = asUtc;
  for (let i = 0; i < 2; i++) moment = asUtc - (Date.parse(`${wallTime(new Date(moment).toISOString(), timezone)}:00Z`) - moment);
  return new Date(moment).toISOString();
}
