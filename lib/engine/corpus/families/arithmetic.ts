// Multi-digit arithmetic: sums and differences of up to three digits, products of two small numbers.

import type { Prng } from "../../prng";
import { exactAnswer, userTurn, type Example } from "../example";

const TEMPLATES = [(e: string) => `What is ${e}?`, (e: string) => `${e} =`, (e: string) => `Compute ${e}.`];

export function arithmeticExample(rng: Prng): Example {
  const op = rng.pick(["+", "-", "*"] as const);
  const a = op === "*" ? rng.int(2, 99) : rng.int(0, 999);
  const b = op === "*" ? rng.int(2, 12) : rng.int(0, 999);
  const value = op === "+" ? a + b : op === "-" ? a - b : a * b;
  const answer = String(value);
  return {
    family: "arithmetic",
    messages: userTurn(rng.pick(TEMPLATES)(`${a} ${op} ${b}`)),
    answer,
    check: exactAnswer(answer),
  };
}
