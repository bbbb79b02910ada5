// A tokenizer as GGUF metadata (the keys llama.cpp reads in llama_vocab::impl::load), so a model
// file carries its own tokenizer and chat template.

import { bool, i32Array, str, strArray, stringArrayValue, stringValue, numberArrayValue, u32, type GgufMetadata } from "../gguf/values";
import type { ChatFormat } from "./chat-template";
import { END_OF_TEXT, IM_END } from "./chatml";
import { CHATML_TEMPLATE } from "./chatml-template";
import { Tokenizer } from "./tokenizer";

const TOKEN_TYPE_NORMAL = 1;
const TOKEN_TYPE_CONTROL = 3;

/** `chatTemplate`: Anneal's own unless the model has another (a checkpoint keeps its base's). */
export function tokenizerToGguf(tokenizer: Tokenizer, chatTemplate = CHATML_TEMPLATE): GgufMetadata {
  const { tokens, merges } = tokenizer.spec;
  const metadata: GgufMetadata = {
    "tokenizer.ggml.model": str("gpt2"),
    "tokenizer.ggml.pre": str("default"),
    "tokenizer.ggml.tokens": strArray(tokens),
    "tokenizer.ggml.token_type": i32Array(tokens.map((_, id) => (tokenizer.isSpecial(id) ? TOKEN_TYPE_CONTROL : TOKEN_TYPE_NORMAL))),
    "tokenizer.ggml.merges": strArray(merges),
  };
  const endOfText = tokenizer.tokenId(END_OF_TEXT);
  const imEnd = tokenizer.tokenId(IM_END);
  if (endOfText !== undefined) {
    metadata["tokenizer.ggml.bos_token_id"] = u32(endOfText);
    metadata["tokenizer.ggml.padding_token_id"] = u32(endOfText);
  }
  if (imEnd !== undefined) {
    metadata["tokenizer.ggml.eos_token_id"] = u32(imEnd);
    metadata["tokenizer.ggml.eot_token_id"] = u32(imEnd);
  }
  metadata["tokenizer.ggml.add_bos_token"] = bool(false);
  metadata["tokenizer.ggml.add_eos_token"] = bool(false);
  metadata["tokenizer.chat_template"] = str(chatTemplate);
  return metadata;
}

/** A GGUF's tokenizer keys (under `tokenizer.ggml.`), as read from the file. */
export interface GgufTokenizerFields {
  model: string;
  pre?: string;
  tokens: readonly string[];
  merges: readonly string[];
  token_type: readonly number[];
}

/** Rebuilds an Anneal tokenizer; other pre-tokenizers (e.g. a Qwen GGUF's) and token types other
 *  than normal and control are refused, since this tokenizer would not reproduce their ids. */
export function tokenizerFromFields({ model, pre, tokens, merges, token_type: types }: GgufTokenizerFields): Tokenizer {
  if (model !== "gpt2" || pre !== "default") throw new Error(`unsupported GGUF tokenizer ${model}/${pre}`);
  if (types.some((t) => t !== TOKEN_TYPE_NORMAL && t !== TOKEN_TYPE_CONTROL)) throw new Error("unsupported GGUF token types");
  return new Tokenizer({ tokens: [...tokens], merges: [...merges], specials: tokens.filter((_, id) => types[id] === TOKEN_TYPE_CONTROL) });
}

export function tokenizerFromGguf(metadata: GgufMetadata): Tokenizer {
  return tokenizerFromFields({
    model: stringValue(metadata, "tokenizer.ggml.model"),
    pre: stringValue(metadata, "tokenizer.ggml.pre"),
    tokens: stringArrayValue(metadata, "tokenizer.ggml.tokens"),
    merges: stringArrayValue(metadata, "tokenizer.ggml.merges"),
    token_type: numberArrayValue(metadata, "tokenizer.ggml.token_type"),
  });
}

/** How the model in a GGUF renders its prompts, as the engine serving that file does: its chat
 *  template (ChatML when it has none), BOS and EOS as its metadata names them. */
export function chatFormatFromGguf(metadata: GgufMetadata, tokenizer: Tokenizer): ChatFormat {
  const token = (key: string) => {
    const id = metadata[key]?.value;
    return typeof id === "number" && id < tokenizer.vocabSize ? { text: tokenizer.decode([id]), id } : null;
  };
  const template = metadata["tokenizer.chat_template"]?.value;
  return {
    template: typeof template === "string" ? template : CHATML_TEMPLATE,
    bos: token("tokenizer.ggml.bos_token_id"),
    eos: token("tokenizer.ggml.eos_token_id"),
    tokenize: (text) => tokenizer.encode(text, { parseSpecials: true }),
  };
}
