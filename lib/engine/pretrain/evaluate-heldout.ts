// Held-out accuracy per task family (and, on the curriculum, per level): the model answers unseen
// corpus prompts by greedy decoding, and each example's own checker grades the reply. Also counts
// replies that end their turn with <|im_end|> (the chat format) rather than running to the token limit.

import type { TaskFamily } from "../corpus/example";
import { CURRICULUM, EmptySplitError, FAMILIES, sampleExamples, type CorpusOptions, type CorpusVersion, type Split } from "../corpus/generate";
import type { LlamaModel } from "../model/llama-model";
import { encodeChat, IM_END } from "../tokenizer/chatml";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { greedyGenerate } from "../train/greedy-generate";

export interface FamilyScore {
  family: TaskFamily;
  /** The curriculum level (corpus version 2); absent for version 1's one mix per family. */
  level?: number;
  /** Every level, each prompt asking for its reply in a format (corpus/reply-formats.ts). */
  formatted?: true;
  /** "train" when the level has no held-out prompt (a few fixed greetings): then it is measured on
   *  prompts it was trained on, and says so. */
  split: Split;
  correct: number;
  endedTurn: number;
  total: number;
}

export interface HeldoutOptions {
  seed: number;
  /** Prompts per family (version 1) or per family and level (version 2). */
  perFamily: number;
  version?: CorpusVersion;
  maxNewTokens?: number;
  /** Also measure each family's prompts asking for a reply format (a model pretrained on them). */
  replyFormats?: boolean;
}

export function evaluateHeldout(model: LlamaModel, tokenizer: Tokenizer, options: HeldoutOptions): FamilyScore[] {
  const families = Object.keys(FAMILIES) as TaskFamily[];
  const cells = families.flatMap((family): { family: TaskFamily; level?: number; formatted?: true }[] =>
    options.version === 2 ? CURRICULUM[family].map((_, i) => ({ family, level: i + 1 })) : [{ family }],
  );
  if (options.replyFormats) cells.push(...families.map((family) => ({ family, formatted: true as const })));
  return cells.map(({ family, level, formatted }) => {
    const cell: CorpusOptions = {
      seed: options.seed,
      split: "heldout",
      families: [family],
      ...(level === undefined ? {} : { version: 2, levels: [level], context: false }),
      ...(formatted && { version: options.version, context: false, replyFormats: 1 }),
    };
    const { split, examples } = heldoutOrTrain(cell, options.perFamily);
    const stopId = tokenizer.tokenId(IM_END)!;
    const prompts = examples.map((e) => encodeChat(tokenizer, e.messages, { addGenerationPrompt: true }).ids);
    const replies = greedyGenerate(model, prompts, { maxNewTokens: options.maxNewTokens ?? 48, stopId });
    return {
      family,
      ...(level === undefined ? {} : { level }),
      ...(formatted && { formatted }),
      split,
      correct: replies.filter((r, i) => r.stopped && examples[i].check(tokenizer.decode(r.tokens))).length,
      endedTurn: replies.filter((r) => r.stopped).length,
      total: examples.length,
    };
  });
}

function heldoutOrTrain(options: CorpusOptions, count: number) {
  try {
    return { split: "heldout" as const, examples: sampleExamples({ ...options, count }) };
  } catch (error) {
    if (!(error instanceof EmptySplitError)) throw error;
    return { split: "train" as const, examples: sampleExamples({ ...options, split: "train", count }) };
  }
}
