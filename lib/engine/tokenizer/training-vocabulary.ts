// What training needs from a model's vocabulary, whoever tokenizes: the ids a conversation
// renders to, the ids a sampled token's text names, the pad that fills a batch's rows and the ids
// that end an assistant's turn. Two implementations: Anneal's own BPE for the files Anneal writes
// (here), and llama.cpp's, the engine's, for every other GGUF (serving/llama-cpp-vocabulary.ts),
// so a served completion and the trajectory built from it are the same token ids.

import type { GgufMetadata } from "../gguf/values";
import type { ChatFormat } from "./chat-template";
import { CHATML_SPECIALS, END_OF_TEXT, IM_END } from "./chatml";
import type { Tokenizer } from "./tokenizer";
import { chatFormatFromGguf, tokenizerFromGguf } from "./tokenizer-gguf";

export interface TrainingVocabulary {
  readonly vocabSize: number;
  /** Text → ids; `parseSpecials` turns special-token texts into their ids (llama.cpp's parse_special). */
  encode(text: string, parseSpecials: boolean): number[];
  /** The tokens' bytes as the engine writes them (special tokens as their text). */
  decodeBytes(ids: readonly number[]): Uint8Array;
  /** The id of one vocabulary entry, as the file spells it (the byte alphabet for byte-level BPE). */
  tokenId(piece: string): number | undefined;
  /** Fills a batch's rows after their last token (never a target, and causal attention keeps it
   *  from any real position). */
  readonly padId: number;
  /** The ids that end an assistant's turn (EOS, EOT): greedy replies stop at them. */
  readonly stopIds: readonly number[];
  /** How the model's conversations are rendered and tokenized, as serving renders them. */
  readonly format: ChatFormat;
}

/** Looking sampled tokens up is all a trajectory's Choices need; Anneal's Tokenizer has it too. */
export type TokenLookup = Pick<TrainingVocabulary, "vocabSize" | "tokenId">;

/** Anneal's tokenizer when a GGUF's is one Anneal writes (tokenizerToGguf): a byte-level BPE that
 *  Anneal's BPE reproduces, with ChatML's control tokens. Its models keep training on Anneal's
 *  tokenizer; any other file (undefined here) is tokenized by llama.cpp. */
export function annealTokenizerOf(metadata: GgufMetadata): Tokenizer | undefined {
  let tokenizer: Tokenizer;
  try {
    tokenizer = tokenizerFromGguf(metadata);
  } catch {
    return undefined;
  }
  const chatml = CHATML_SPECIALS.every((text) => {
    const id = tokenizer.tokenId(text);
    return id !== undefined && tokenizer.isSpecial(id);
  });
  return chatml ? tokenizer : undefined;
}

/** Anneal's BPE over a file it wrote: ChatML's <|endoftext|> pads and its EOS (<|im_end|>) ends a
 *  turn, as Anneal's models have always been trained. */
export function annealVocabulary(tokenizer: Tokenizer, metadata: GgufMetadata): TrainingVocabulary {
  const format = chatFormatFromGguf(metadata, tokenizer);
  const required = (text: string) => {
    const id = tokenizer.tokenId(text);
    if (id === undefined) throw new Error(`tokenizer has no token ${text}`);
    return id;
  };
  const stopIds = [format.eos?.id ?? required(IM_END)];
  return {
    vocabSize: tokenizer.vocabSize,
    encode: (text, parseSpecials) => tokenizer.encode(text, { parseSpecials }),
    decodeBytes: (ids) => tokenizer.decodeBytes(ids),
    tokenId: (piece) => tokenizer.tokenId(piece),
    padId: required(END_OF_TEXT),
    stopIds,
    format: { ...format, endOfTurn: stopIds },
  };
}
