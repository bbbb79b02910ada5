import type { LlamaModel, Token } from "node-llama-cpp";

// The tokens whose text contains U+0000 (a byte-fallback `<0x00>` token, or a merge holding one).
// They are never sampled: the API refuses NUL in every request value, and PostgreSQL cannot store it
// in text or JSON, so a reply holding one could be neither recorded as a call nor sent back as a
// trajectory. A 0x00 byte is never part of a longer UTF-8 character, so checking tokens alone is exact.

const cache = new WeakMap<LlamaModel, readonly number[]>();

/** The ids below `vocabularySize` (the length of the model's logits) whose text holds a NUL. */
export function nulTokenIds(model: LlamaModel, vocabularySize: number): readonly number[] {
  let ids = cache.get(model);
  if (!ids) {
    const found: number[] = [];
    for (let t = 0; t < vocabularySize; t++) if (model.detokenize([t as Token], true).includes("\u0000")) found.push(t);
    cache.set(model, (ids = found));
  }
  return ids;
}
