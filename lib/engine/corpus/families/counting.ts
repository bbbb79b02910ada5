// Counting letters and words. The curriculum grades by how much there is to count.

import type { Prng } from "../../prng";
import { exactAnswer, userTurn, type Example, type Level } from "../example";
import { WORDS } from "./words";

const counted = (prompt: string, count: number): Example => {
  const answer = String(count);
  return { family: "counting", messages: userTurn(prompt), answer, check: exactAnswer(answer) };
};

const wordCount = (rng: Prng, lo: number, hi: number): Example => {
  const ws = Array.from({ length: rng.int(lo, hi) }, () => rng.pick(WORDS));
  return counted(`How many words: ${ws.join(" ")}`, ws.length);
};

export function countingExample(rng: Prng): Example {
  const kind = rng.int(0, 2);
  if (kind === 0) {
    const w = rng.pick(WORDS);
    return counted(`How many letters are in "${w}"?`, w.length);
  }
  if (kind === 1) {
    const w = rng.pick(WORDS);
    const letter = rng.pick([...w]);
    return counted(`How many times does "${letter}" appear in "${w}"?`, [...w].filter((c) => c === letter).length);
  }
  return wordCount(rng, 1, 6);
}

export const COUNTING_LEVELS: Level[] = [
  { describe: "one to three words", generate: (rng) => wordCount(rng, 1, 3) },
  { describe: "letters in a word, one letter's count, up to six words (version 1's tasks)", generate: countingExample },
  {
    describe: "seven to twelve words, or the letters of two words",
    generate: (rng) => {
      if (rng.int(0, 1) === 0) return wordCount(rng, 7, 12);
      const ws = [rng.pick(WORDS), rng.pick(WORDS)];
      return counted(`How many letters are in "${ws.join(" ")}", not counting spaces?`, ws[0].length + ws[1].length);
    },
  },
];
