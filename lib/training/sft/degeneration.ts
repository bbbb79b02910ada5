// Signs that a model's replies have degenerated, read from greedy replies to held-out prompts:
// looping (the reply is mostly one repeated stretch of tokens), text that is not valid UTF-8 (a
// byte-level model emitting broken sequences: U+FFFD once decoded) or holds control characters,
// and never ending the turn within the reply budget.

export interface SampledReply {
  tokens: readonly number[];
  /** The reply's bytes as the tokenizer writes them (before any UTF-8 decoding). */
  bytes: Uint8Array;
  /** True when the model ended its turn (its end-of-turn token), false when it hit the limit. */
  ended: boolean;
}

export type Degeneration = "repetition" | "invalid_text" | "never_ends_turn";

/** Share of the reply's token n-grams that repeat an earlier n-gram of the same reply. */
export function repeatedNgramShare(tokens: readonly number[], n = 3): number {
  if (tokens.length < n) return 0;
  const seen = new Set<string>();
  let repeated = 0;
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(",");
    if (seen.has(key)) repeated++;
    else seen.add(key);
  }
  return repeated / (tokens.length - n + 1);
}

/** A reply loops when it is long enough to tell (12+ tokens) and most of its 3-grams are repeats. */
const LOOP_MIN_TOKENS = 12;
const LOOP_SHARE = 0.5;
const fatalUtf8 = new TextDecoder("utf-8", { fatal: true });
// Control characters other than tab, newline and carriage return: a chat reply never needs them.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/u;

export function validText(bytes: Uint8Array): boolean {
  try {
    const text = fatalUtf8.decode(bytes);
    return !text.includes("\uFFFD") && !CONTROL.test(text);
  } catch {
    return false;
  }
}

export function degenerations(reply: SampledReply): Degeneration[] {
  const found: Degeneration[] = [];
  if (reply.tokens.length >= LOOP_MIN_TOKENS && repeatedNgramShare(reply.tokens) >= LOOP_SHARE) found.push("repetition");
  if (!validText(reply.bytes)) found.push("invalid_text");
  if (!reply.ended) found.push("never_ends_turn");
  return found;
}

/** For each kind, the share of replies showing it. */
export function degenerationShares(replies: readonly SampledReply[]): Record<Degeneration, number> {
  const shares: Record<Degeneration, number> = { repetition: 0, invalid_text: 0, never_ends_turn: 0 };
  if (replies.length === 0) return shares;
  for (const reply of replies) for (const kind of degenerations(reply)) shares[kind] += 1 / replies.length;
  return shares;
}
