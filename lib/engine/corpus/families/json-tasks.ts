// Small JSON tasks: read a field, build an object, count keys. Built objects are checked by value,
// so key order and whitespace do not matter.

import type { Prng } from "../../prng";
import { exactAnswer, userTurn, type Example } from "../example";
import { COLORS, NAMES } from "./words";

export function jsonExample(rng: Prng): Example {
  const person = { name: rng.pick(NAMES), age: rng.int(1, 99), color: rng.pick(COLORS) };
  const kind = rng.int(0, 2);
  if (kind === 0) {
    const key = rng.pick(["name", "age", "color"] as const);
    const answer = String(person[key]);
    return {
      family: "json",
      messages: userTurn(`Get "${key}" from ${JSON.stringify(person)}`),
      answer,
      check: exactAnswer(answer),
    };
  }
  if (kind === 1) {
    const target = { name: person.name, age: person.age };
    const answer = JSON.stringify(target);
    return {
      family: "json",
      messages: userTurn(`Make JSON with name ${target.name} and age ${target.age}.`),
      answer,
      check: (output) => jsonEquals(output, target),
    };
  }
  const keys = Object.keys(person).slice(0, rng.int(1, 3));
  const obj = Object.fromEntries(keys.map((k) => [k, person[k as keyof typeof person]]));
  const answer = String(keys.length);
  return { family: "json", messages: userTurn(`How many keys in ${JSON.stringify(obj)}?`), answer, check: exactAnswer(answer) };
}

function jsonEquals(output: string, expected: Record<string, unknown>): boolean {
  try {
    const got: unknown = JSON.parse(output.trim());
    if (typeof got !== "object" || got === null || Array.isArray(got)) return false;
    const g = got as Record<string, unknown>;
    const keys = Object.keys(expected);
    return Object.keys(g).length === keys.length && keys.every((k) => g[k] === expected[k]);
  } catch {
    return false;
  }
}
