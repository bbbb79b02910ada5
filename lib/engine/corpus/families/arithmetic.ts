// Arithmetic. Version 1 of the corpus: sums and differences of up to three digits, products of two
// small numbers. The curriculum grades it by operand size, so a small model is right often at the
// bottom, sometimes in the middle and rarely at the top.

import type { Prng } from "../../prng";
import { exactAnswer, userTurn, type Example, type Level } from "../example";

const TEMPLATES = [(e: string) => `What is ${e}?`, (e: string) => `${e} =`, (e: string) => `Compute ${e}.`];
type Op = "+" | "-" | "*";

function arithmetic(rng: Prng, op: Op, a: number, b: number): Example {
  const value = op === "+" ? a + b : op === "-" ? a - b : a * b;
  const answer = String(value);
  return {
    family: "arithmetic",
    messages: userTurn(rng.pick(TEMPLATES)(`${a} ${op} ${b}`)),
    answer,
    check: exactAnswer(answer),
  };
}

export function arithmeticExample(rng: Prng): Example {
  const op = rng.pick(["+", "-", "*"] as const);
  const a = op === "*" ? rng.int(2, 99) : rng.int(0, 999);
  const b = op === "*" ? rng.int(2, 12) : rng.int(0, 999);
  return arithmetic(rng, op, a, b);
}

export const ARITHMETIC_LEVELS: Level[] = [
  {
    describe: "one-digit operands (+, −, ×)",
    generate: (rng) => {
      const op = rng.pick(["+", "-", "*"] as const);
      return arithmetic(rng, op, rng.int(0, 9), rng.int(0, 9));
    },
  },
  {
    describe: "two-digit sums and differences, products within the 12× table",
    generate: (rng) => {
      const op = rng.pick(["+", "-", "*"] as const);
      return op === "*" ? arithmetic(rng, op, rng.int(2, 12), rng.int(2, 12)) : arithmetic(rng, op, rng.int(10, 99), rng.int(10, 99));
    },
  },
  { describe: "three-digit sums and differences, two-digit × one-digit products (version 1's mix)", generate: arithmeticExample },
];
