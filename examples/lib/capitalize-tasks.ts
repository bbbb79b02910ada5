// "Capitalize: <word> <word>": the strings family's uppercase task ("Uppercase: …") asked in a
// wording tiny-chat's corpus never uses. The base model answers it right about 40% of the time
// (it half-recognises the request), which gives RL on the exact answer something to climb:
// held-out accuracy measures whether the model learned what the new wording asks, on word pairs
// it was not trained on in that wording. Train and held-out prompts split by the corpus's prompt
// hash (10% held out: 144 of the 1,444 word pairs), like every corpus task; no prompt repeats.
import { exactAnswer, userTurn } from "../../lib/engine/corpus/example";
import { WORDS } from "../../lib/engine/corpus/families/words";
import { splitOf, type Split } from "../../lib/engine/corpus/generate";
import { Prng } from "../../lib/engine/prng";
import { taskOf, type Task } from "./tasks";

export function capitalizeTasks(o: { split: Split; seed: number; count: number }): Task[] {
  const rng = new Prng(o.seed, o.split === "train" ? 1 : 2);
  const tasks: Task[] = [];
  const seen = new Set<string>();
  while (tasks.length < o.count) {
    const words = `${rng.pick(WORDS)} ${rng.pick(WORDS)}`;
    if (seen.size === WORDS.length ** 2) throw new Error(`capitalizeTasks: fewer than ${o.count} ${o.split} prompts exist`);
    if (seen.has(words)) continue;
    seen.add(words);
    const answer = words.toUpperCase();
    const example = { family: "strings" as const, messages: userTurn(`Capitalize: ${words}`), answer, check: exactAnswer(answer) };
    if (splitOf(example, 0.1) === o.split) tasks.push(taskOf(example));
  }
  return tasks;
}
