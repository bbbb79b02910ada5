// Pre-tokenization: splitting text into the pieces BPE merges within, exactly as llama.cpp does for
// `tokenizer.ggml.pre = "default"` (src/llama-vocab.cpp). That is not GPT-2's single regex but four
// regexes applied in turn, each splitting the pieces of the previous one (matches and the text between
// them both become pieces):
//   1. [\p{P}\$\+<=>\^~\|]+        punctuation runs (every ASCII symbol except the backtick)
//   2. GPT-2's regex               's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//   3. \p{N}+                      number runs (so " 42" becomes " " and "42")
//   4. [0-9][0-9][0-9]             ASCII digits in threes from the left ("12345" → "123", "45")
// Stage 2 is a port of llama.cpp's hand-written unicode_regex_split_custom_gpt2, whose lookahead and
// piece-boundary behaviour differ subtly from a JavaScript regex. Its contractions ('s, 't, ...)
// never match here: stage 1 has already put every apostrophe in a piece of punctuation only.

import { codepointFlags, LETTER, NUMBER, PUNCTUATION, WHITESPACE } from "./unicode-classes";

/** Appends to `lengths` the lengths of consecutive pieces covering cps[start, end). */
type Splitter = (cps: Uint32Array, start: number, end: number, lengths: number[]) => void;

const ASCII_PUNCTUATION_RUN = new Set(Array.from("!\"#$%&'()*+,-./:;<=>?@[\\]^_{|}~", (c) => c.charCodeAt(0)));
const isPunctuationRunChar = (cp: number) =>
  cp < 128 ? ASCII_PUNCTUATION_RUN.has(cp) : codepointFlags(cp) === PUNCTUATION;
const isNumberChar = (cp: number) => codepointFlags(cp) === NUMBER;
const isDigit = (cp: number) => cp >= 0x30 && cp <= 0x39;

/** Splits out maximal runs of chars matching `inRun`; the text between runs becomes pieces too. */
const splitRuns = (inRun: (cp: number) => boolean): Splitter => (cps, start, end, lengths) => {
  let gapStart = start;
  for (let pos = start; pos < end; ) {
    if (!inRun(cps[pos])) { pos++; continue; }
    let runEnd = pos;
    while (runEnd < end && inRun(cps[runEnd])) runEnd++;
    if (pos > gapStart) lengths.push(pos - gapStart);
    lengths.push(runEnd - pos);
    gapStart = pos = runEnd;
  }
  if (end > gapStart) lengths.push(end - gapStart);
};

const splitDigitTriples: Splitter = (cps, start, end, lengths) => {
  let gapStart = start;
  for (let pos = start; pos + 3 <= end; ) {
    if (!(isDigit(cps[pos]) && isDigit(cps[pos + 1]) && isDigit(cps[pos + 2]))) { pos++; continue; }
    if (pos > gapStart) lengths.push(pos - gapStart);
    lengths.push(3);
    gapStart = pos += 3;
  }
  if (end > gapStart) lengths.push(end - gapStart);
};

const OUTSIDE = -1; // past the piece: no class, which ends every run (llama.cpp's empty flags)
const SPACE = 0x20;
const isOther = (f: number) => f === 0 || f === PUNCTUATION;
const flagsIn = (cps: Uint32Array, pos: number, end: number) => (pos < end ? codepointFlags(cps[pos]) : OUTSIDE);

const splitGpt2: Splitter = (cps, start, end, lengths) => {
  for (let pos = start; pos < end; ) {
    const space = cps[pos] === SPACE;
    const lead = flagsIn(cps, space ? pos + 1 : pos, end);
    let cut = space ? pos + 1 : pos;
    if (lead === LETTER || lead === NUMBER) { // " ?\p{L}+", " ?\p{N}+"
      while (flagsIn(cps, cut, end) === lead) cut++;
    } else if (isOther(lead)) { // " ?[^\s\p{L}\p{N}]+"
      while (isOther(flagsIn(cps, cut, end))) cut++;
    } else {
      let spaces = 0;
      while (flagsIn(cps, pos + spaces, end) === WHITESPACE) spaces++;
      if (spaces > 1 && pos + spaces < end) cut = pos + spaces - 1; // "\s+(?!\S)"
      else cut = pos + Math.max(spaces, 1); // "\s+", or one unmatched char
    }
    lengths.push(cut - pos);
    pos = cut;
  }
};

const STAGES: Splitter[] = [splitRuns(isPunctuationRunChar), splitGpt2, splitRuns(isNumberChar), splitDigitTriples];

/** The pieces of `text` (a string without lone surrogates), in order; they concatenate to `text`. */
export function pretokenize(text: string): string[] {
  const codepoints = new Uint32Array(text.length);
  const utf16At: number[] = []; // utf16At[i]: index in `text` of codepoint i
  let n = 0;
  for (let i = 0; i < text.length; n++) {
    const cp = text.codePointAt(i)!;
    utf16At.push(i);
    codepoints[n] = cp;
    i += cp > 0xffff ? 2 : 1;
  }
  utf16At.push(text.length);
  let lengths = [n];
  for (const split of STAGES) {
    const next: number[] = [];
    let start = 0;
    for (const len of lengths) {
      split(codepoints, start, start + len, next);
      start += len;
    }
    lengths = next;
  }
  const pieces: string[] = [];
  let start = 0;
  for (const len of lengths) {
    pieces.push(text.slice(utf16At[start], utf16At[start + len]));
    start += len;
  }
  return pieces;
}
