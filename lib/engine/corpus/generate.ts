// The task corpus: an endless, seeded stream of examples from every family. Train and held-out sets
// never share a prompt: each prompt hashes to one split, and a stream keeps only its own split's.

import { renderChat } from "../tokenizer/chatml";
import { Prng } from "../prng";
import { withAnswer, type Example, type ExampleGenerator, type TaskFamily } from "./example";
import { arithmeticExample } from "./families/arithmetic";
import { countingExample } from "./families/counting";
import { dialogueExample } from "./families/dialogue";
import { jsonExample } from "./families/json-tasks";
import { stringsExample } from "./families/strings";

export const FAMILIES: Record<TaskFamily, ExampleGenerator> = {
  arithmetic: arithmeticExample,
  strings: stringsExample,
  counting: countingExample,
  json: jsonExample,
  dialogue: dialogueExample,
};

export type Split = "train" | "heldout";

export interface CorpusOptions {
  seed: number;
  split: Split;
  /** Defaults to every family, chosen uniformly. */
  families?: TaskFamily[];
  /** Share of prompts reserved for held-out (default 0.1). */
  heldoutFraction?: number;
}

export function* generateExamples(options: CorpusOptions): Generator<Example> {
  const families = options.families ?? (Object.keys(FAMILIES) as TaskFamily[]);
  const fraction = options.heldoutFraction ?? 0.1;
  const rng = new Prng(options.seed, options.split === "train" ? 1 : 2);
  for (;;) {
    const example = FAMILIES[rng.pick(families)](rng);
    if (splitOf(example, fraction) === options.split) yield example;
  }
}

export function sampleExamples(options: CorpusOptions & { count: number }): Example[] {
  const out: Example[] = [];
  for (const e of generateExamples(options)) {
    if (out.length >= options.count) break;
    out.push(e);
  }
  return out;
}

/** Rendered ChatML conversations (prompt and reference reply) to train the tokenizer on. */
export function tokenizerTrainingTexts(count = 4000, seed = 0): string[] {
  return sampleExamples({ seed, split: "train", count }).map((e) => renderChat(withAnswer(e)));
}

/** The split a prompt belongs to: its hash, so every stream (and any restyled task built on the
 *  corpus's vocabularies) agrees on it. */
export function splitOf(example: Pick<Example, "messages">, heldoutFraction: number): Split {
  return fnv1a(JSON.stringify(example.messages)) / 4294967296 < heldoutFraction ? "heldout" : "train";
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
