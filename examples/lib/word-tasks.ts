// Tasks on words that tiny-chat's corpus never asks, each rewarded by the exact answer, for RL
// to climb from a base that half-recognises them:
//  - "capitalize": "Capitalize: <word> <word>", the corpus's uppercase task in a wording it never
//    uses. tiny-chat answers it right about 40% of the time; tiny-chat-2, never.
//  - "first-word": "First word of: <word> <word> <word>", a question the corpus never asks (it
//    asks for the last word, and for first letters). tiny-chat-2 answers it right about 24% of the time.
// Held-out accuracy measures whether the model learned what the request means, on word lists it
// was not trained on. Train and held-out prompts split by the corpus's prompt hash (10% held out),
// like every corpus task; no prompt repeats.
import { exactAnswer, userTurn } from "../../lib/engine/corpus/example";
import { WORDS } from "../../lib/engine/corpus/families/words";
import { splitOf, type Split } from "../../lib/engine/corpus/generate";
import { Prng } from "../../lib/engine/prng";
import { taskOf, type Task } from "./tasks";

interface WordTask {
  words: number;
  prompt(words: string[]): string;
  answer(words: string[]): string;
}

export const WORD_TASKS = {
  capitalize: { words: 2, prompt: (ws) => `Capitalize: ${ws.join(" ")}`, answer: (ws) => ws.join(" ").toUpperCase() },
  "first-word": { words: 3, prompt: (ws) => `First word of: ${ws.join(" ")}`, answer: (ws) => ws[0] },
} satisfies Record<string, WordTask>;
export type WordTaskName = keyof typeof WORD_TASKS;

export function wordTasks(name: WordTaskName, o: { split: Split; seed: number; count: number }): Task[] {
  const kind: WordTask = WORD_TASKS[name];
  const rng = new Prng(o.seed, o.split === "train" ? 1 : 2);
  const tasks: Task[] = [];
  const seen = new Set<string>();
  while (tasks.length < o.count) {
    if (seen.size === WORDS.length ** kind.words) throw new Error(`wordTasks(${name}): fewer than ${o.count} ${o.split} prompts exist`);
    const words = Array.from({ length: kind.words }, () => rng.pick(WORDS));
    const prompt = kind.prompt(words);
    if (seen.has(prompt)) continue;
    seen.add(prompt);
    const answer = kind.answer(words);
    const example = { family: "strings" as const, messages: userTurn(prompt), answer, check: exactAnswer(answer) };
    if (splitOf(example, 0.1) === o.split) tasks.push(taskOf(example));
  }
  return tasks;
}
