// Rewards against a prompt's reference answer: the reply equals it (exact), or the reply's
// number equals the reference's number (numeric). 1 when it does, 0 when not.

/** Leading and trailing whitespace never counts; case only when asked. */
export function exactMatch(reply: string, reference: string, o: { caseSensitive: boolean }): number {
  const norm = (s: string) => (o.caseSensitive ? s.trim() : s.trim().toLowerCase());
  return norm(reply) === norm(reference) ? 1 : 0;
}

const NUMBER = /[-+]?(?:\d[\d,]*\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi;

/** The last number written in a text ("so 3 + 4 = 7." → 7), thousands separators allowed; null if none. */
export function lastNumber(text: string): number | null {
  const found = text.match(NUMBER);
  if (!found) return null;
  const value = Number(found[found.length - 1].replace(/,/g, ""));
  return Number.isFinite(value) ? value : null;
}

/** The reply's last number is the reference's within `tolerance` (absolute). */
export function numericMatch(reply: string, reference: string, o: { tolerance: number }): number {
  const expected = lastNumber(reference);
  const got = lastNumber(reply);
  return expected !== null && got !== null && Math.abs(got - expected) <= o.tolerance ? 1 : 0;
}
