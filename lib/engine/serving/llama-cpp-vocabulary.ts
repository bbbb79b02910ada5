// Training's vocabulary for a GGUF Anneal did not write (a Qwen2.5, Qwen3 or Llama 3 model): the
// file loaded vocabulary-only into llama.cpp, tokenized and rendered by exactly the code serving
// uses (text-tokenizer.ts, served-chat-format.ts), so the trajectory built from a served completion
// holds the ids the engine served. Its turns end at llama.cpp's end-of-generation tokens, where
// serving stops generating.

import type { LlamaModel, Token } from "node-llama-cpp";
import { openGguf } from "../gguf/read-gguf";
import type { GgufMetadata } from "../gguf/values";
import { annealTokenizerOf, annealVocabulary, type TrainingVocabulary } from "../tokenizer/training-vocabulary";
import { getLlamaRuntime } from "./llama-runtime";
import { servedChatFormat } from "./served-chat-format";
import { textTokenizer } from "./text-tokenizer";

export function llamaCppVocabulary(model: LlamaModel): TrainingVocabulary {
  const ggml = (model.fileInfo.metadata as { tokenizer: { ggml: { tokens: readonly string[]; padding_token_id?: number } } }).tokenizer.ggml;
  const vocabSize = ggml.tokens.length;
  // Later entries win, as in llama.cpp's token_to_id.
  const ids = new Map(ggml.tokens.map((token, id) => [token, id]));
  // llama.cpp's end-of-generation set: EOS, EOT and tokens it knows by their text (Qwen's
  // <|endoftext|>, a stray "</s>"); ~50–100 ms for a 150k vocabulary, once per loaded file.
  const stopIds: number[] = [];
  for (let id = 0; id < vocabSize; id++) if (model.isEogToken(id as Token)) stopIds.push(id);
  const tokenize = textTokenizer(model);
  return {
    vocabSize,
    encode: tokenize,
    // llama.cpp's detokenizer hands back text: bytes that are not UTF-8 arrive as U+FFFD, which
    // the guard rails' validText refuses as it would the bytes.
    decodeBytes: (tokens) => new TextEncoder().encode(model.detokenize(tokens as Token[], true)),
    tokenId: (piece) => ids.get(piece),
    // Llama 3's files name no pad: its EOS pads, as Hugging Face's trainers pad it.
    padId: ggml.padding_token_id ?? model.tokens.eos ?? 0,
    stopIds,
    format: { ...servedChatFormat(model), endOfTurn: stopIds },
  };
}

export interface LoadedVocabulary {
  vocabulary: TrainingVocabulary;
  /** Frees llama.cpp's copy of the vocabulary, if one was loaded. */
  close(): Promise<void>;
}

/** Loads a file's vocabulary into llama.cpp. A thread that may be terminated must not hold one:
 *  terminating a thread while it calls into node-llama-cpp aborts the whole process (training
 *  threads ask the vocabulary thread instead, lib/training/jobs/vocabulary/). */
export type LlamaCppLoader = (ggufPath: string) => Promise<LoadedVocabulary>;

/** llama.cpp's vocabulary of `ggufPath`, loaded vocabulary-only in this thread. */
export async function loadLlamaCppVocabulary(ggufPath: string): Promise<LoadedVocabulary> {
  const model = await (await getLlamaRuntime()).loadModel({ modelPath: ggufPath, vocabOnly: true });
  try {
    return { vocabulary: llamaCppVocabulary(model), close: () => model.dispose() };
  } catch (error) {
    await model.dispose();
    throw error;
  }
}

/** The vocabulary a training job tokenizes `ggufPath`'s conversations with: Anneal's own BPE for the
 *  files Anneal writes (no llama.cpp needed), llama.cpp's (through `viaLlamaCpp`) for any other. */
export async function loadTrainingVocabulary(ggufPath: string, viaLlamaCpp: LlamaCppLoader = loadLlamaCppVocabulary): Promise<LoadedVocabulary> {
  const metadata = readMetadata(ggufPath);
  const own = annealTokenizerOf(metadata);
  if (own) return { vocabulary: annealVocabulary(own, metadata), close: async () => {} };
  return viaLlamaCpp(ggufPath);
}

function readMetadata(path: string): GgufMetadata {
  const file = openGguf(path);
  try {
    return file.metadata;
  } finally {
    file.close();
  }
}
