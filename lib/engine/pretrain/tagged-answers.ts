// A task format the pretraining corpus never uses: a system message asks for the answer inside
// <answer>…</answer>, and the reply is exactly that. Fine-tuning on it measures how quickly a model
// learns a new format (the SFT learning-rate sweep and the fine-tune test use it).

import { withAnswer, type Example } from "../corpus/example";
import { sampleExamples, type Split } from "../corpus/generate";
import type { ChatMessage } from "../tokenizer/chatml";

export const TAG_INSTRUCTION = "Reply with the answer inside <answer></answer> tags.";

export const taggedConversation = (e: Example): ChatMessage[] => [
  { role: "system", content: TAG_INSTRUCTION },
  ...withAnswer({ ...e, answer: `<answer>${e.answer}</answer>` }),
];

export const taggedConversations = (seed: number, split: Split, count: number): ChatMessage[][] =>
  sampleExamples({ seed, split, count }).map(taggedConversation);
