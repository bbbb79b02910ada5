// String transformations of short words and phrases. The curriculum grades them by how much text
// one answer transforms: one short word, version 1's tasks, then longer phrases.

import type { Prng } from "../../prng";
import { exactAnswer, userTurn, type Example, type Level } from "../example";
import { WORDS } from "./words";

type Task = (rng: Prng) => { prompt: string; answer: string };

const words = (rng: Prng, n: number) => Array.from({ length: n }, () => rng.pick(WORDS));
const SHORT_WORDS = WORDS.filter((w) => w.length <= 4);

const TASKS: Task[] = [
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

const EASY_TASKS: Task[] = [
  (rng) => {
    const w = rng.pick(SHORT_WORDS);
    return { prompt: `Reverse the word: ${w}`, answer: [...w].reverse().join("") };
  },
  (rng) => {
    const w = rng.pick(WORDS);
    return { prompt: `Uppercase: ${w}`, answer: w.toUpperCase() };
  },
  (rng) => {
    const w = rng.pick(WORDS);
    return { prompt: `Repeat "${w}" 2 times.`, answer: `${w} ${w}` };
  },
  (rng) => {
    const ws = words(rng, 2);
    return { prompt: `Last word of: ${ws.join(" ")}`, answer: ws[1] };
  },
];

const HARD_TASKS: Task[] = [
  (rng) => {
    const ws = words(rng, 2);
    return { prompt: `Reverse the word: ${ws.join("")}`, answer: [...ws.join("")].reverse().join("") };
  },
  (rng) => {
    const ws = words(rng, rng.int(4, 5));
    return { prompt: `Reverse the order of: ${ws.join(" ")}`, answer: [...ws].reverse().join(" ") };
  },
  (rng) => {
    const ws = words(rng, rng.int(5, 7));
    return { prompt: `First letters of: ${ws.join(" ")}`, answer: ws.map((w) => w[0]).join("") };
  },
  (rng) => {
    const ws = words(rng, 4);
    return { prompt: `Uppercase: ${ws.join(" ")}`, answer: ws.join(" ").toUpperCase() };
  },
];

const stringsTask = (task: Task) => (rng: Prng): Example => {
  const { prompt, answer } = task(rng);
  return { family: "strings", messages: userTurn(prompt), answer, check: exactAnswer(answer) };
};

export const stringsExample = (rng: Prng): Example => stringsTask(rng.pick(TASKS))(rng);

export const STRINGS_LEVELS: Level[] = [
  { describe: "one short word", generate: (rng) => stringsTask(rng.pick(EASY_TASKS))(rng) },
  { describe: "a word or a phrase of two or three (version 1's tasks)", generate: stringsExample },
  { describe: "phrases of four to seven words, reversing ten letters", generate: (rng) => stringsTask(rng.pick(HARD_TASKS))(rng) },
];
