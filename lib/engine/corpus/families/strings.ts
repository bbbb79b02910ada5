// String transformations of short words and phrases.

import type { Prng } from "../../prng";
import { exactAnswer, userTurn, type Example } from "../example";
import { WORDS } from "./words";

const TASKS: ((rng: Prng) => { prompt: string; answer: string })[] = [
  (rng) => {
    const w = rng.pick(WORDS);
    return { prompt: `Reverse the word: ${w}`, answer: [...w].reverse().join("") };
  },
  (rng) => {
    const p = `${rng.pick(WORDS)} ${rng.pick(WORDS)}`;
    return { prompt: `Uppercase: ${p}`, answer: p.toUpperCase() };
  },
  (rng) => {
    const w = rng.pick(WORDS);
    const n = rng.int(2, 4);
    return { prompt: `Repeat "${w}" ${n} times.`, answer: Array(n).fill(w).join(" ") };
  },
  (rng) => {
    const ws = [rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS)];
    return { prompt: `First letters of: ${ws.join(" ")}`, answer: ws.map((w) => w[0]).join("") };
  },
  (rng) => {
    const ws = [rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS)];
    return { prompt: `Last word of: ${ws.join(" ")}`, answer: ws[2] };
  },
];

export function stringsExample(rng: Prng): Example {
  const { prompt, answer } = rng.pick(TASKS)(rng);
  return { family: "strings", messages: userTurn(prompt), answer, check: exactAnswer(answer) };
}
