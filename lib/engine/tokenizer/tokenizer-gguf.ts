// A tokenizer as GGUF metadata (the keys llama.cpp reads in llama_vocab::impl::load), so a model
// file carries its own tokenizer and chat template.

import { bool, i32Array, str, strArray, stringArrayValue, stringValue, numberArrayValue, u32, type GgufMetadata } from "../gguf/values";
import { CHATML_TEMPLATE, END_OF_TEXT, IM_END } from "./chatml";
import { Tokenizer } from "./tokenizer";

const TOKEN_TYPE_NORMAL = 1;
const TOKEN_TYPE_CONTROL = 3;

export function tokenizerToGguf(tokenizer: Tokenizer): GgufMetadata {
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
  metadata["tokenizer.chat_template"] = str(CHATML_TEMPLATE);
  return metadata;
}

/** Rebuilds an Anneal tokenizer; other pre-tokenizers (e.g. a Qwen GGUF's) are refused, since
 *  this tokenizer would not reproduce their ids. */
export function tokenizerFromGguf(metadata: GgufMetadata): Tokenizer {
  const model = stringValue(metadata, "tokenizer.ggml.model");
  const pre = stringValue(metadata, "tokenizer.ggml.pre");
  if (model !== "gpt2" || pre !== "default") throw new Error(`unsupported GGUF tokenizer ${model}/${pre}`);
  const tokens = stringArrayValue(metadata, "tokenizer.ggml.tokens");
  const types = numberArrayValue(metadata, "tokenizer.ggml.token_type");
  return new Tokenizer({
    tokens,
    merges: stringArrayValue(metadata, "tokenizer.ggml.merges"),
    specials: tokens.filter((_, id) => types[id] === TOKEN_TYPE_CONTROL),
  });
}
