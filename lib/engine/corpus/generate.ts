// The task corpus: an endless, seeded stream of examples from every family. Train and held-out sets
// never share a prompt: each prompt hashes to one split, and a stream keeps only its own split's.
//
// Version 1 (tiny-chat's) draws each family's one mix of tasks. Version 2 (tiny-chat-2's) is a
// curriculum: each family has graded levels, drawn uniformly, and half of its conversations carry
// context before the task (a system message, earlier exchanges of the same split), so a model
// trained on it meets long conversations.

import { renderChat, type ChatMessage } from "../tokenizer/chatml";
import { Prng } from "../prng";
import { withAnswer, type Example, type ExampleGenerator, type Level, type TaskFamily } from "./example";
import { ARITHMETIC_LEVELS, arithmeticExample } from "./families/arithmetic";
import { COUNTING_LEVELS, countingExample } from "./families/counting";
import { DIALOGUE_LEVELS, dialogueExample } from "./families/dialogue";
import { JSON_LEVELS, jsonExample } from "./families/json-tasks";
import { STRINGS_LEVELS, stringsExample } from "./families/strings";
import { withReplyFormat } from "./reply-formats";

export const FAMILIES: Record<TaskFamily, ExampleGenerator> = {
  arithmetic: arithmeticExample,
  strings: stringsExample,
  counting: countingExample,
  json: jsonExample,
  dialogue: dialogueExample,
};

/** The curriculum of corpus version 2: levels 1, 2, 3 per family (level 2 is version 1's mix, except
 *  arithmetic, where version 1's mix is the hardest level). */
export const CURRICULUM: Record<TaskFamily, Level[]> = {
  arithmetic: ARITHMETIC_LEVELS,
  strings: STRINGS_LEVELS,
  counting: COUNTING_LEVELS,
  json: JSON_LEVELS,
  dialogue: DIALOGUE_LEVELS,
};

export type CorpusVersion = 1 | 2;
export type Split = "train" | "heldout";

export interface CorpusOptions {
  seed: number;
  split: Split;
  /** 1 (default) or 2, the curriculum. */
  version?: CorpusVersion;
  /** Defaults to every family, chosen uniformly. */
  families?: TaskFamily[];
  /** Version 2: only these levels (default all, chosen uniformly). */
  levels?: number[];
  /** Version 2: add context before the task (default true); off for measuring one level alone. */
  context?: boolean;
  /** Share of prompts reserved for held-out (default 0.1). */
  heldoutFraction?: number;
  /** Share of conversations whose replies are in a format the conversation asks for (default 0;
   *  reply-formats.ts). Drawn from a stream of its own: the conversations are those without it. */
  replyFormats?: number;
}

/** System messages of version 2's context; the tasks' answers do not depend on them. */
const SYSTEM_PROMPTS = [
  "You are a helpful assistant.",
  "You are tiny-chat, a small assistant. Answer briefly.",
  "Answer with the result only.",
  "You are a careful assistant. Reply in plain text.",
];

/** Draws without a prompt of the split before giving up: a task with few distinct prompts (fixed
 *  greetings) may have none in held-out. */
const MAX_DRAWS = 10_000;

export class EmptySplitError extends Error {
  constructor(readonly split: Split) {
    super(`no ${split} prompt in ${MAX_DRAWS.toLocaleString("en")} draws: every prompt of these tasks hashes to the other split`);
  }
}

export function* generateExamples(options: CorpusOptions): Generator<Example> {
  const families = options.families ?? (Object.keys(FAMILIES) as TaskFamily[]);
  const fraction = options.heldoutFraction ?? 0.1;
  const rng = new Prng(options.seed, options.split === "train" ? 1 : 2);
  const draw = options.version === 2 ? curriculumDraw(options.levels) : (r: Prng) => FAMILIES[r.pick(families)](r);
  const inSplit = (r: Prng): Example => {
    for (let attempt = 0; attempt < MAX_DRAWS; attempt++) {
      const e = draw(r, families);
      if (splitOf(e, fraction) === options.split) return e;
    }
    throw new EmptySplitError(options.split);
  };
  const formatRng = new Prng(options.seed, options.split === "train" ? 3 : 4);
  for (;;) {
    const task = inSplit(rng);
    const example = options.version === 2 && options.context !== false ? withContext(rng, task, () => inSplit(rng)) : task;
    yield options.replyFormats && formatRng.next() < options.replyFormats ? withReplyFormat(formatRng, example) : example;
  }
}

function curriculumDraw(levels: number[] | undefined) {
  return (rng: Prng, families: TaskFamily[]): Example => {
    const family = rng.pick(families);
    const level = rng.pick(levels ?? CURRICULUM[family].map((_, i) => i + 1));
    return { ...CURRICULUM[family][level - 1].generate(rng), level };
  };
}

/** Half of the time: the task after up to two earlier exchanges and, for some, a system message. The
 *  split is the task's own, and earlier exchanges come from that split, so context never leaks a
 *  held-out prompt into training. */
function withContext(rng: Prng, task: Example, another: () => Example): Example {
  if (rng.next() < 0.5) return task;
  const context: ChatMessage[] = [];
  if (rng.next() < 0.5) context.push({ role: "system", content: rng.pick(SYSTEM_PROMPTS) });
  for (let n = rng.int(0, 2); n > 0; n--) context.push(...withAnswer(another()));
  return { ...task, messages: [...context, ...task.messages] };
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
export function tokenizerTrainingTexts(count = 4000, seed = 0, version: CorpusVersion = 1): string[] {
  return sampleExamples({ seed, split: "train", count, version }).map((e) => renderChat(withAnswer(e)));
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
