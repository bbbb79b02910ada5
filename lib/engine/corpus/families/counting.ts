// Counting letters and words.

import type { Prng } from "../../prng";
import { exactAnswer, userTurn, type Example } from "../example";
import { WORDS } from "./words";

export function countingExample(rng: Prng): Example {
  let prompt: string, count: number;
  const kind = rng.int(0, 2);
  if (kind === 0) {
    const w = rng.pick(WORDS);
    prompt = `How many letters are in "${w}"?`;
    count = w.length;
  } else if (kind === 1) {
    const w = rng.pick(WORDS);
    const letter = rng.pick([...w]);
    prompt = `How many times does "${letter}" appear in "${w}"?`;
    count = [...w].filter((c) => c === letter).length;
  } else {
    const ws = Array.from({ length: rng.int(1, 6) }, () => rng.pick(WORDS));
    prompt = `How many words: ${ws.join(" ")}`;
    count = ws.length;
  }
  const answer = String(count);
  return { family: "counting", messages: userTurn(prompt), answer, check: exactAnswer(answer) };
}
