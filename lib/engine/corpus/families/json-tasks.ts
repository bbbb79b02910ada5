// Small JSON tasks: read a field, build an object, count keys. Built objects are checked by value,
// so key order and whitespace do not matter. The curriculum grades by the object's size and depth.

import type { Prng } from "../../prng";
import { exactAnswer, userTurn, type Example, type Level } from "../example";
import { COLORS, NAMES, WORDS } from "./words";

const person = (rng: Prng) => ({ name: rng.pick(NAMES), age: rng.int(1, 99), color: rng.pick(COLORS) });

const field = (key: string, obj: object, answer: string): Example => ({
  family: "json",
  messages: userTurn(`Get "${key}" from ${JSON.stringify(obj)}`),
  answer,
  check: exactAnswer(answer),
});

const keyCount = (obj: object): Example => {
  const answer = String(Object.keys(obj).length);
  return { family: "json", messages: userTurn(`How many keys in ${JSON.stringify(obj)}?`), answer, check: exactAnswer(answer) };
};

export function jsonExample(rng: Prng): Example {
  const p = person(rng);
  const kind = rng.int(0, 2);
  if (kind === 0) {
    const key = rng.pick(["name", "age", "color"] as const);
    return field(key, p, String(p[key]));
  }
  if (kind === 1) {
    const target = { name: p.name, age: p.age };
    return {
      family: "json",
      messages: userTurn(`Make JSON with name ${target.name} and age ${target.age}.`),
      answer: JSON.stringify(target),
      check: (output) => jsonEquals(output, target),
    };
  }
  const keys = Object.keys(p).slice(0, rng.int(1, 3));
  return keyCount(Object.fromEntries(keys.map((k) => [k, p[k as keyof typeof p]])));
}

export const JSON_LEVELS: Level[] = [
  {
    describe: "one key",
    generate: (rng) => {
      const p = person(rng);
      const key = rng.pick(["name", "age", "color"] as const);
      return field(key, { [key]: p[key] }, String(p[key]));
    },
  },
  { describe: "three keys: read, build, count (version 1's tasks)", generate: jsonExample },
  {
    describe: "nested objects and five to six keys",
    generate: (rng) => {
      const p = person(rng);
      const wide = { ...p, city: rng.pick(WORDS), pet: rng.pick(WORDS), ...(rng.int(0, 1) ? { size: rng.int(1, 9) } : {}) };
      const kind = rng.int(0, 2);
      if (kind === 0) {
        const key = rng.pick(["name", "age", "color"] as const);
        return field(`user.${key}`, { id: rng.int(1, 999), user: p }, String(p[key]));
      }
      if (kind === 1) {
        const key = rng.pick(Object.keys(wide)) as keyof typeof wide;
        return field(key, wide, String(wide[key]));
      }
      return keyCount(wide);
    },
  },
];

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
