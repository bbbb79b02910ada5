"use client";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

export function formatRelative(iso: string, now = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return "just now";
}

/** "3 days ago", with the exact time on hover and for screen readers. */
export function RelativeTime({ iso, fallback = "—" }: { iso: string | null; fallback?: string }) {
  if (!iso) return <span className="text-zinc-400">{fallback}</span>;
  const exact = new Date(iso).toLocaleString();
  return (
    <time dateTime={iso} title={exact} suppressHydrationWarning>
      {formatRelative(iso)}
    </time>
  );
}
