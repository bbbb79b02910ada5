// Codepoint classes exactly as llama.cpp's pre-tokenizer sees them (src/unicode.cpp, unicode-data.cpp).
// JavaScript's \p{L}/\p{N}/\p{P} agree with llama.cpp's tables everywhere except on characters
// assigned after Unicode 15.1, which llama.cpp's tables do not know (they have no category there),
// and llama.cpp's whitespace set is its own: it includes U+0085 and excludes U+FEFF.

export const LETTER = 1;
export const NUMBER = 2;
export const WHITESPACE = 4;
export const PUNCTUATION = 8;

const LLAMACPP_WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** Letters, numbers and punctuation of Unicode 16–17 that are uncategorised in llama.cpp (15.1).
 *  Measured by comparing unicode-data.cpp of the llama.cpp that node-llama-cpp 3.22.1 bundles
 *  with Node 20's ICU (Unicode 17). */
const UNKNOWN_TO_LLAMACPP: readonly [number, number][] = [
  [0x88f, 0x88f], [0xc5c, 0xc5c], [0xcdc, 0xcdc], [0x1b4e, 0x1b4f], [0x1b7f, 0x1b7f], [0x1c89, 0x1c8a],
  [0xa7cb, 0xa7cf], [0xa7d2, 0xa7d2], [0xa7d4, 0xa7d4], [0xa7da, 0xa7dc], [0xa7f1, 0xa7f1],
  [0x105c0, 0x105f3], [0x10940, 0x10959], [0x10d40, 0x10d65], [0x10d6e, 0x10d85], [0x10ec2, 0x10ec7],
  [0x10ed0, 0x10ed0], [0x11380, 0x11389], [0x1138b, 0x1138b], [0x1138e, 0x1138e], [0x11390, 0x113b5],
  [0x113b7, 0x113b7], [0x113d1, 0x113d1], [0x113d3, 0x113d5], [0x113d7, 0x113d8], [0x116d0, 0x116e3],
  [0x11bc0, 0x11be1], [0x11bf0, 0x11bf9], [0x11db0, 0x11ddb], [0x11de0, 0x11de9], [0x13460, 0x143fa],
  [0x16100, 0x1611d], [0x16130, 0x16139], [0x16d40, 0x16d79], [0x16ea0, 0x16eb8], [0x16ebb, 0x16ed3],
  [0x16ff2, 0x16ff6], [0x187f8, 0x187ff], [0x18cff, 0x18cff], [0x18d09, 0x18d1e], [0x18d80, 0x18df2],
  [0x1ccf0, 0x1ccf9], [0x1e5d0, 0x1e5ed], [0x1e5f0, 0x1e5fa], [0x1e5ff, 0x1e5ff], [0x1e6c0, 0x1e6de],
  [0x1e6e0, 0x1e6e2], [0x1e6e4, 0x1e6e5], [0x1e6e7, 0x1e6ed], [0x1e6f0, 0x1e6f4], [0x1e6fe, 0x1e6ff],
  [0x2b73a, 0x2b73f], [0x2cea2, 0x2cead], [0x323b0, 0x33479],
];

const isUnknownToLlamaCpp = (cp: number) => UNKNOWN_TO_LLAMACPP.some(([lo, hi]) => cp >= lo && cp <= hi);

function computeFlags(cp: number): number {
  if (LLAMACPP_WHITESPACE.has(cp)) return WHITESPACE;
  if (isUnknownToLlamaCpp(cp)) return 0;
  const c = String.fromCodePoint(cp);
  if (/\p{L}/u.test(c)) return LETTER;
  if (/\p{N}/u.test(c)) return NUMBER;
  if (/\p{P}/u.test(c)) return PUNCTUATION;
  return 0;
}

const ASCII_FLAGS = Uint8Array.from({ length: 128 }, (_, cp) => computeFlags(cp));
const nonAsciiFlags = new Map<number, number>();

/** One of LETTER, NUMBER, WHITESPACE, PUNCTUATION, or 0 (symbols, marks, controls, unassigned). */
export function codepointFlags(cp: number): number {
  if (cp < 128) return ASCII_FLAGS[cp];
  let f = nonAsciiFlags.get(cp);
  if (f === undefined) {
    f = computeFlags(cp);
    nonAsciiFlags.set(cp, f);
  }
  return f;
}
