import { badRequest } from "@/lib/contract/errors";

// Bounds on what reaches llama.cpp's grammar parser. It runs synchronously on the engine thread,
// so every other generation waits while it works: its time grows with the square of a rule's
// elements (a 32 KiB rule of optional literals ~70 ms, 160 KiB of alternatives ~260 ms, measured
// on this machine), and it recurses once per nested group, so deep enough nesting (≈ 15,000)
// overflows the native stack and ends the process. A JSON schema or a regex is bounded before it
// becomes a grammar, and the grammar itself again.

export const MAX_GRAMMAR_CHARACTERS = 32 * 1024;
export const MAX_GRAMMAR_NESTING = 64;

/** Refuses a GBNF text over the size or nesting bound; `field` names what the request gave. */
export function checkGrammarBounds(gbnf: string, field: string, translated = false): void {
  const what = translated ? `${field} translates to a grammar of` : `${field} is`;
  if (gbnf.length > MAX_GRAMMAR_CHARACTERS) throw badRequest(`${what} ${gbnf.length} characters; the limit is ${MAX_GRAMMAR_CHARACTERS}.`);
  if (gbnfNesting(gbnf) > MAX_GRAMMAR_NESTING) throw badRequest(`${field} nests groups deeper than ${MAX_GRAMMAR_NESTING} levels.`);
}

/** The deepest parenthesis nesting of a GBNF text (literals, character classes and comments skipped). */
function gbnfNesting(gbnf: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < gbnf.length; i++) {
    const c = gbnf[i];
    if (c === '"' || c === "[") {
      const close = c === '"' ? '"' : "]";
      for (i++; i < gbnf.length && gbnf[i] !== close; i++) if (gbnf[i] === "\\") i++;
    } else if (c === "#") {
      while (i < gbnf.length && gbnf[i] !== "\n") i++;
    } else if (c === "(") {
      deepest = Math.max(deepest, ++depth);
    } else if (c === ")") {
      depth--;
    }
  }
  return deepest;
}
