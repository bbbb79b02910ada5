// Text Anneal can keep as it was sent. PostgreSQL refuses U+0000 in text and jsonb, and UTF-8
// encoding turns a lone UTF-16 surrogate into U+FFFD: such strings are refused where they arrive
// (request values, credentials) instead of failing in a query or changing silently.

const LONE_SURROGATE = /\p{Cs}/u;

/** Why `text` cannot be kept as it was sent, if it cannot. */
export function textProblem(text: string): string | undefined {
  if (text.includes("\0")) return "must not contain NUL characters (U+0000)";
  if (LONE_SURROGATE.test(text)) return "must be valid Unicode (it contains a lone UTF-16 surrogate)";
  return undefined;
}
