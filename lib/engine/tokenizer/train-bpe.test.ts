import { describe, expect, it } from "vitest";
import { BYTE_TO_CHAR } from "./byte-alphabet";
import { CHATML_SPECIALS, IM_END } from "./chatml";
import { trainBpe } from "./train-bpe";

const texts = [
  "the cat sat on the mat",
  "the dog sat on the log",
  `<|im_start|>user\nthe cat<|im_end|>\n`,
  "12345 + 678 = 13023",
];

describe("trainBpe", () => {
  it("is deterministic and lays out bytes, specials, then merges", () => {
    const a = trainBpe(texts, 300, CHATML_SPECIALS);
    const b = trainBpe([...texts], 300, CHATML_SPECIALS);
    expect(a.spec).toEqual(b.spec);
    expect(a.spec.tokens.slice(0, 256)).toEqual(BYTE_TO_CHAR);
    expect(a.spec.tokens.slice(256, 259)).toEqual(CHATML_SPECIALS);
    expect(a.spec.tokens.length).toBe(259 + a.spec.merges.length);
  });

  it("learns frequent words first and never merges across special tokens", () => {
    const tok = trainBpe(texts, 300, CHATML_SPECIALS);
    expect(tok.encode(" the")).toHaveLength(1);
    expect(tok.encode(" sat")).toHaveLength(1);
    expect(tok.spec.tokens.some((t, id) => id > 258 && t.includes("<|"))).toBe(false);
    expect(tok.encode(`x${IM_END}`, { parseSpecials: true }).at(-1)).toBe(tok.tokenId(IM_END));
  });

  it("stops early when the corpus has no pairs left, and stops at vocabSize otherwise", () => {
    expect(trainBpe(["ab"], 1000, []).vocabSize).toBe(257);
    expect(trainBpe(texts, 270, CHATML_SPECIALS).vocabSize).toBe(270);
  });

  it("breaks count ties by the smallest pair", () => {
    // "ab" and "cd" occur equally often: (a, b) has the smaller ids, so it is merged first.
    expect(trainBpe(["cd ab", "ab cd"], 257, []).spec.merges).toEqual(["a b"]);
  });
});
