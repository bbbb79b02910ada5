// Which vocabulary id a Choice's logprobs entry stands for. Never re-tokenize the text: a token's
// text can encode to zero or several ids, which would misalign the sampler's logprobs.
import { BYTE_TO_CHAR } from "@/lib/engine/tokenizer/byte-alphabet";
import type { TokenLookup } from "@/lib/engine/tokenizer/training-vocabulary";
import type { TokenLogprob } from "./schemas";

const TOKEN_ID = /^token_id:(\d+)$/;

const spell = (bytes: Iterable<number>) => Array.from(bytes, (b) => BYTE_TO_CHAR[b]).join("");

/**
 * "token_id:<id>" gives the id; otherwise the entry's `bytes` (when given) or its text is looked up
 * as one vocabulary entry: by its UTF-8 bytes spelled in the byte alphabet, then (for clients that
 * send the vocabulary's own strings, as ART's fallback does) as a raw token string. Undefined when
 * nothing matches or the id is outside the vocabulary.
 */
export function lookupChoiceToken(vocabulary: TokenLookup, entry: TokenLogprob): number | undefined {
  const byId = TOKEN_ID.exec(entry.token);
  if (byId) {
    const id = Number(byId[1]);
    return id < vocabulary.vocabSize ? id : undefined;
  }
  if (entry.bytes) return vocabulary.tokenId(spell(entry.bytes));
  return vocabulary.tokenId(spell(new TextEncoder().encode(entry.token))) ?? vocabulary.tokenId(entry.token);
}
