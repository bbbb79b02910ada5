// Training and held-out batches from the task corpus. Step s of a run draws its conversations from
// a corpus stream seeded by (corpus seed, s), so a resumed run sees exactly the batches the
// uninterrupted run would have, with no stream position to save.

import { withAnswer, type Example } from "../corpus/example";
import { generateExamples, type CorpusVersion, type Split } from "../corpus/generate";
import { Prng } from "../prng";
import { encodeChat, END_OF_TEXT, type ChatMessage, type EncodedChat } from "../tokenizer/chatml";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { conversationRows, packConversations, type LossTokens, type PackedBatch } from "../train/packed-batch";

export interface BatchShape {
  batchSize: number;
  seqLen: number;
  lossTokens: LossTokens;
}

export function* encodedConversations(tokenizer: Tokenizer, examples: Iterable<Example>): Generator<EncodedChat> {
  for (const e of examples) yield encodeChat(tokenizer, withAnswer(e));
}

/** The corpus seed of training step `step`. */
export const stepSeed = (corpusSeed: number, step: number): number => new Prng(corpusSeed, step).uint32();

function padId(tokenizer: Tokenizer): number {
  const id = tokenizer.tokenId(END_OF_TEXT);
  if (id === undefined) throw new Error(`tokenizer has no ${END_OF_TEXT}`);
  return id;
}

export function corpusBatch(tokenizer: Tokenizer, shape: BatchShape, seed: number, split: Split, version: CorpusVersion = 1): PackedBatch {
  const conversations = encodedConversations(tokenizer, generateExamples({ seed, split, version }));
  return packConversations(conversations, { ...shape, padId: padId(tokenizer) });
}

export const trainingBatch = (tokenizer: Tokenizer, shape: BatchShape, corpusSeed: number, step: number, version: CorpusVersion = 1): PackedBatch =>
  corpusBatch(tokenizer, shape, stepSeed(corpusSeed, step), "train", version);

/** Whole conversations as one batch, one per row, loss on the assistant's tokens. */
export const chatBatch = (tokenizer: Tokenizer, conversations: readonly ChatMessage[][]): PackedBatch =>
  conversationRows(conversations.map((c) => encodeChat(tokenizer, c)), padId(tokenizer), "assistant");
