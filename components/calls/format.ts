// How the call log writes numbers.

/** `840 ms`, `12.3 s`, or a dash when the call has none. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return "—";
  return ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toLocaleString("en")} ms`;
}
