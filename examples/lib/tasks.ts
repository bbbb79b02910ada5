// Tasks with a programmatic reward, from tiny-chat's own task corpus (lib/engine/corpus): seeded
// prompts, each with a checker. Training and held-out prompts never overlap (the corpus splits
// prompts by hash). Rewards need the model to have ended its turn (finish_reason "stop"); then
// "exact": 1 when the checker accepts the reply, else 0; "digits" (numeric answers): the share of
// the answer's digit positions, aligned from the right (units with units), that the reply gets
// right — partial credit, so a task the model rarely gets fully right still has a gradient;
// "even": 1 when the reply is an even integer, whatever the question — a stated preference the
// base model meets about half the time (the shape of lib/training/rl/rl-learning.test.ts's task).
import type { ChatCompletion, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { Example, TaskFamily } from "../../lib/engine/corpus/example";
import { sampleExamples, type CorpusVersion, type Split } from "../../lib/engine/corpus/generate";

export interface Task {
  family: TaskFamily;
  messages: ChatCompletionMessageParam[];
  /** The reference reply (what SFT data would teach). */
  answer: string;
  reward(choice: Pick<ChatCompletion.Choice, "message" | "finish_reason">): number;
}

export type RewardKind = "exact" | "digits" | "even";

/** `levels` picks curriculum levels (corpus version 2, the task alone without context). */
export function corpusTasks(o: { families: TaskFamily[]; split: Split; seed: number; count: number; reward?: RewardKind; levels?: number[] }): Task[] {
  const curriculum = o.levels ? { version: 2 as CorpusVersion, levels: o.levels, context: false } : {};
  return sampleExamples({ ...o, ...curriculum }).map((example) => taskOf(example, o.reward));
}

/** A corpus example as a task rewarded by `reward` (default "exact": the example's checker). */
export function taskOf(example: Example, reward: RewardKind = "exact"): Task {
  return {
    family: example.family,
    messages: example.messages.map((m) => ({ role: m.role, content: m.content }) as ChatCompletionMessageParam),
    answer: example.answer,
    reward: (choice) => {
      if (choice.finish_reason !== "stop") return 0;
      const reply = choice.message.content ?? "";
      if (reward === "digits") return digitReward(example.answer, reply);
      if (reward === "even") return /^-?\d*[02468]$/.test(reply.trim()) ? 1 : 0;
      return example.check(reply) ? 1 : 0;
    },
  };
}

/** Share of digit positions right, aligned from the right (a sign counts as a position); 0 for a
 *  reply that is not an integer. "1551" for 1551: 1; "1561": 0.75; "551": 0.75; "-1551": 0.8. */
export function digitReward(answer: string, reply: string): number {
  const got = reply.trim().replace(/\.$/, "");
  if (!/^-?\d+$/.test(got)) return 0;
  const [a, b] = [[...answer].reverse(), [...got].reverse()];
  const positions = Math.max(a.length, b.length);
  let right = 0;
  for (let i = 0; i < positions; i++) if (a[i] === b[i]) right++;
  return right / positions;
}
