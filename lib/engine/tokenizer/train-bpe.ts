// Byte-level BPE training. Vocabulary layout: ids 0–255 are the bytes (id = byte value), then the
// special tokens, then one token per merge in the order learned. Each step merges the most frequent
// adjacent pair across the pre-tokenized corpus; ties go to the smallest (left id, right id), so the
// result depends only on the texts. Pair counts are updated incrementally: only the words that
// contain the merged pair are recounted.

import { BYTE_TO_CHAR } from "./byte-alphabet";
import { pretokenize } from "./pretokenize";
import { splitOnSpecials, toWellFormed, Tokenizer } from "./tokenizer";

/** Learns merges until the vocabulary has `vocabSize` tokens (fewer if the corpus runs out of pairs). */
export function trainBpe(texts: Iterable<string>, vocabSize: number, specials: string[]): Tokenizer {
  const tokens = [...BYTE_TO_CHAR, ...specials];
  if (vocabSize < tokens.length) throw new Error(`trainBpe: vocabSize ${vocabSize} < ${tokens.length} byte and special tokens`);
  const words = countWords(texts, specials);
  const wordIds = [...words.keys()].map((w) => Array.from(new TextEncoder().encode(w))); // byte b has id b
  const counts = [...words.values()];

  const pairCount = new Map<number, number>();
  const pairWords = new Map<number, Set<number>>();
  const key = (a: number, b: number) => a * vocabSize + b;
  const addWordPairs = (w: number, sign: 1 | -1) => {
    const ids = wordIds[w];
    for (let i = 0; i + 1 < ids.length; i++) {
      const k = key(ids[i], ids[i + 1]);
      pairCount.set(k, (pairCount.get(k) ?? 0) + sign * counts[w]);
      if (sign > 0) {
        let set = pairWords.get(k);
        if (!set) pairWords.set(k, (set = new Set()));
        set.add(w);
      }
    }
  };
  wordIds.forEach((_, w) => addWordPairs(w, 1));

  const merges: string[] = [];
  while (tokens.length < vocabSize) {
    let best = -1, bestCount = 0;
    for (const [k, c] of pairCount) if (c > bestCount || (c === bestCount && c > 0 && k < best)) [best, bestCount] = [k, c];
    if (bestCount <= 0) break;
    const left = Math.floor(best / vocabSize), right = best % vocabSize;
    const merged = tokens.length;
    tokens.push(tokens[left] + tokens[right]);
    merges.push(`${tokens[left]} ${tokens[right]}`);
    for (const w of pairWords.get(best)!) {
      addWordPairs(w, -1);
      wordIds[w] = mergePair(wordIds[w], left, right, merged);
      addWordPairs(w, 1);
    }
    pairCount.delete(best);
    pairWords.delete(best);
  }
  return new Tokenizer({ tokens, merges, specials });
}

/** Distinct pre-tokenized pieces with their counts; special tokens never take part in merges. */
function countWords(texts: Iterable<string>, specials: string[]): Map<string, number> {
  const longestFirst = [...specials].sort((a, b) => b.length - a.length);
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const fragment of splitOnSpecials(toWellFormed(text), longestFirst)) {
      if (fragment.special) continue;
      for (const piece of pretokenize(fragment.text)) counts.set(piece, (counts.get(piece) ?? 0) + 1);
    }
  }
  return counts;
}

function mergePair(ids: number[], left: number, right: number, merged: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (i + 1 < ids.length && ids[i] === left && ids[i + 1] === right) {
      out.push(merged);
      i++;
    } else out.push(ids[i]);
  }
  return out;
}
