// Training and held-out batches from the task corpus. Step s of a run draws its conversations from
// a corpus stream seeded by (corpus seed, s), so a resumed run sees exactly the batches the
// uninterrupted run would have, with no stream position to save.

import { withAnswer, type Example } from "../corpus/example";
import { generateExamples, type CorpusOptions, type Split } from "../corpus/generate";
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

/** What a run draws from the corpus besides the seed: its version and share of reply formats. */
export type CorpusChoice = Pick<CorpusOptions, "version" | "replyFormats">;

export function corpusBatch(tokenizer: Tokenizer, shape: BatchShape, seed: number, split: Split, corpus: CorpusChoice = {}): PackedBatch {
  const conversations = encodedConversations(tokenizer, generateExamples({ seed, split, ...corpus }));
  return packConversations(fitting(conversations, shape.seqLen), { ...shape, padId: padId(tokenizer) });
}

/** Conversations are never split across rows: one longer than a row (a few with reply formats and
 *  earlier exchanges) is left out. */
function* fitting(conversations: Iterable<EncodedChat>, seqLen: number): Generator<EncodedChat> {
  for (const c of conversations) if (c.ids.length <= seqLen) yield c;
}

export const trainingBatch = (tokenizer: Tokenizer, shape: BatchShape, corpusSeed: number, step: number, corpus: CorpusChoice = {}): PackedBatch =>
  corpusBatch(tokenizer, shape, stepSeed(corpusSeed, step), "train", corpus);

/** Whole conversations as one batch, one per row, loss on the assistant's tokens. */
export const chatBatch = (tokenizer: Tokenizer, conversations: readonly ChatMessage[][]): PackedBatch =>
  conversationRows(conversations.map((c) => encodeChat(tokenizer, c)), padId(tokenizer), "assistant");
