// Pre-tokenization: splitting text into the pieces BPE merges within, exactly as llama.cpp does for
// `tokenizer.ggml.pre = "default"` (src/llama-vocab.cpp). That is not GPT-2's single regex but four
// regexes applied in turn, each splitting the pieces of the previous one (matches and the text between
// them both become pieces):
//   1. [\p{P}\$\+<=>\^~\|]+        punctuation runs (every ASCII symbol except the backtick)
//   2. GPT-2's regex               's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//   3. \p{N}+                      number runs (so " 42" becomes " " and "42")
//   4. [0-9][0-9][0-9]             ASCII digits in threes from the left ("12345" → "123", "45")
// Stage 2 is a port of llama.cpp's hand-written unicode_regex_split_custom_gpt2, whose lookahead and
// piece-boundary behaviour differ subtly from a JavaScript regex.

import { codepointFlags, LETTER, NUMBER, PUNCTUATION, WHITESPACE } from "./unicode-classes";

/** Calls emit(length) for consecutive pieces covering cps[start, end). */
type Splitter = (cps: Uint32Array, start: number, end: number, emit: (length: number) => void) => void;

const ASCII_PUNCTUATION_RUN = new Set(Array.from("!\"#$%&'()*+,-./:;<=>?@[\\]^_{|}~", (c) => c.charCodeAt(0)));
const isPunctuationRunChar = (cp: number) =>
  cp < 128 ? ASCII_PUNCTUATION_RUN.has(cp) : codepointFlags(cp) === PUNCTUATION;
const isDigit = (cp: number) => cp >= 0x30 && cp <= 0x39;

/** Splits out maximal runs of chars matching `inRun`; the text between runs becomes pieces too. */
const splitRuns = (inRun: (cp: number) => boolean): Splitter => (cps, start, end, emit) => {
  let gapStart = start;
  for (let pos = start; pos < end; ) {
    if (!inRun(cps[pos])) { pos++; continue; }
    let runEnd = pos;
    while (runEnd < end && inRun(cps[runEnd])) runEnd++;
    if (pos > gapStart) emit(pos - gapStart);
    emit(runEnd - pos);
    gapStart = pos = runEnd;
  }
  if (end > gapStart) emit(end - gapStart);
};

const splitDigitTriples: Splitter = (cps, start, end, emit) => {
  let gapStart = start;
  for (let pos = start; pos + 3 <= end; ) {
    if (!(isDigit(cps[pos]) && isDigit(cps[pos + 1]) && isDigit(cps[pos + 2]))) { pos++; continue; }
    if (pos > gapStart) emit(pos - gapStart);
    emit(3);
    gapStart = pos += 3;
  }
  if (end > gapStart) emit(end - gapStart);
};

const splitGpt2: Splitter = (cps, start, end, emit) => {
  // Outside the piece a position has no class (llama.cpp's empty flags), which ends every run.
  const flagsAt = (pos: number) => (pos < end ? codepointFlags(cps[pos]) : -1);
  const isOther = (f: number) => f === 0 || f === PUNCTUATION;
  const APOSTROPHE = 0x27, SPACE = 0x20;
  let prevEnd = start;
  const cut = (at: number) => {
    if (at > prevEnd) emit(at - prevEnd);
    prevEnd = at;
  };
  for (let pos = start; pos < end; ) {
    const cp = cps[pos];
    if (cp === APOSTROPHE && pos + 1 < end) {
      const a = String.fromCodePoint(cps[pos + 1]);
      if (a === "s" || a === "t" || a === "m" || a === "d") { cut((pos += 2)); continue; }
      if (pos + 2 < end) {
        const ab = a + String.fromCodePoint(cps[pos + 2]);
        if (ab === "re" || ab === "ve" || ab === "ll") { cut((pos += 3)); continue; }
      }
    }
    const lead = cp === SPACE ? flagsAt(pos + 1) : flagsAt(pos);
    const runOf = (inRun: (f: number) => boolean) => {
      if (cp === SPACE) pos++;
      while (inRun(flagsAt(pos))) pos++;
      cut(pos);
    };
    if (lead === LETTER) { runOf((f) => f === LETTER); continue; }
    if (lead === NUMBER) { runOf((f) => f === NUMBER); continue; }
    if (isOther(lead)) { runOf(isOther); continue; }

    let spaces = 0;
    while (flagsAt(pos + spaces) === WHITESPACE) spaces++;
    if (spaces > 1 && pos + spaces < end) { cut((pos += spaces - 1)); continue; } // \s+(?!\S)
    if (spaces > 0) { cut((pos += spaces)); continue; }
    cut(++pos);
  }
};

const STAGES: Splitter[] = [splitRuns(isPunctuationRunChar), splitGpt2, splitRuns((cp) => codepointFlags(cp) === NUMBER), splitDigitTriples];

/** The pieces of `text` (a string without lone surrogates), in order; they concatenate to `text`. */
export function pretokenize(text: string): string[] {
  const cps: number[] = [];
  const utf16At: number[] = []; // utf16At[i]: index in `text` of codepoint i
  for (let i = 0; i < text.length; i += cps[cps.length - 1] > 0xffff ? 2 : 1) {
    utf16At.push(i);
    cps.push(text.codePointAt(i)!);
  }
  utf16At.push(text.length);
  const codepoints = Uint32Array.from(cps);
  let lengths = [codepoints.length];
  for (const split of STAGES) {
    const next: number[] = [];
    let start = 0;
    for (const len of lengths) {
      split(codepoints, start, start + len, (n) => next.push(n));
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
