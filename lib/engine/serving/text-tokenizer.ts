// Text → token ids for a served model. llama.cpp's tokenizer takes ~0.4 ms for a short chat prompt
// on these machines (its pre-tokenizer regex), on the event loop every stream shares. For the
// tokenizers Anneal writes (byte-level BPE, "default" pre-tokenizer, normal and control tokens)
// Anneal's own BPE gives the same ids ~15× faster: tokenizer-agreement.test.ts holds the two to
// each other on curated, rendered and fuzzed text. Any other model's text goes through llama.cpp.

import type { LlamaModel } from "node-llama-cpp";
import { tokenizerFromFields, type GgufTokenizerFields } from "../tokenizer/tokenizer-gguf";

/** `specials`: turn special-token texts (e.g. "<|im_end|>") into their ids, as llama.cpp's
 *  parse_special does. */
export type TextTokenizer = (text: string, specials: boolean) => number[];

const tokenizers = new WeakMap<LlamaModel, TextTokenizer>();

export function textTokenizer(model: LlamaModel): TextTokenizer {
  let tokenize = tokenizers.get(model);
  if (!tokenize) tokenizers.set(model, (tokenize = annealTokenizer(model) ?? ((text, specials) => model.tokenize(text, specials) as number[])));
  return tokenize;
}

function annealTokenizer(model: LlamaModel): TextTokenizer | undefined {
  const fields = (model.fileInfo.metadata as { tokenizer?: { ggml?: Partial<GgufTokenizerFields> } }).tokenizer?.ggml;
  if (!fields?.model || !fields.tokens || !fields.merges || !fields.token_type) return undefined;
  try {
    const tokenizer = tokenizerFromFields(fields as GgufTokenizerFields);
    return (text, specials) => tokenizer.encode(text, { parseSpecials: specials });
  } catch {
    return undefined; // not a tokenizer Anneal reproduces
  }
}

/** For tests: whether `model` is tokenized by Anneal's BPE rather than llama.cpp's. */
export const usesAnnealTokenizer = (model: LlamaModel): boolean => annealTokenizer(model) !== undefined;
