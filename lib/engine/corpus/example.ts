// A training example with a checkable answer: the prompt messages, the reference answer, and a
// checker that says whether any model output counts as correct (RL rewards come from it).

import type { ChatMessage } from "../tokenizer/chatml";
import type { Prng } from "../prng";

export type TaskFamily = "arithmetic" | "strings" | "counting" | "json" | "dialogue";

export interface Example {
  family: TaskFamily;
  /** The conversation up to the assistant's turn. */
  messages: ChatMessage[];
  /** The reference assistant reply. */
  answer: string;
  check(output: string): boolean;
  /** The curriculum level it was drawn at (1 = easiest); absent in the version-1 corpus. */
  level?: number;
}

/** Makes one example of a family from a random stream. */
export type ExampleGenerator = (rng: Prng) => Example;

/** One rung of a family's curriculum: what makes it harder than the one below, and its generator. */
export interface Level {
  describe: string;
  generate: ExampleGenerator;
}

/** The full conversation for supervised training: the prompt and the reference reply. */
export const withAnswer = (example: Example): ChatMessage[] => [
  ...example.messages,
  { role: "assistant", content: example.answer },
];

/** Output equals the answer after trimming whitespace and one trailing period. */
export const exactAnswer = (answer: string) => (output: string): boolean =>
  output.trim().replace(/\.$/, "") === answer;

export const userTurn = (content: string): ChatMessage[] => [{ role: "user", content }];
