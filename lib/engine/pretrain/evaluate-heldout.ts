// Held-out accuracy per task family: the model answers unseen corpus prompts by greedy decoding,
// and each example's own checker grades the reply. Also counts replies that end their turn with
// <|im_end|> (the chat format) rather than running to the token limit.

import type { TaskFamily } from "../corpus/example";
import { FAMILIES, sampleExamples } from "../corpus/generate";
import type { LlamaModel } from "../model/llama-model";
import { encodeChat, END_OF_TEXT, IM_END } from "../tokenizer/chatml";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { greedyGenerate } from "./greedy-generate";

export interface FamilyScore {
  family: TaskFamily;
  correct: number;
  endedTurn: number;
  total: number;
}

export function evaluateHeldout(model: LlamaModel, tokenizer: Tokenizer, options: { seed: number; perFamily: number; maxNewTokens?: number }): FamilyScore[] {
  const stopId = tokenizer.tokenId(IM_END)!;
  const padId = tokenizer.tokenId(END_OF_TEXT)!;
  return (Object.keys(FAMILIES) as TaskFamily[]).map((family) => {
    const examples = sampleExamples({ seed: options.seed, split: "heldout", count: options.perFamily, families: [family] });
    const prompts = examples.map((e) => encodeChat(tokenizer, e.messages, { addGenerationPrompt: true }).ids);
    const replies = greedyGenerate(model, prompts, { maxNewTokens: options.maxNewTokens ?? 48, stopId, padId });
    return {
      family,
      correct: replies.filter((r, i) => r.stopped && examples[i].check(tokenizer.decode(r.tokens))).length,
      endedTurn: replies.filter((r) => r.stopped).length,
      total: examples.length,
    };
  });
}
