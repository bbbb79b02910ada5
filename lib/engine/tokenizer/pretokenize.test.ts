import { describe, expect, it } from "vitest";
import { Prng } from "../prng";
import { pretokenize } from "./pretokenize";

// Expected pieces are llama.cpp's for tokenizer.ggml.pre = "default" (agreement with llama.cpp
// itself is tested in serving/tokenizer-agreement.test.ts).
describe("pretokenize (llama.cpp 'default')", () => {
  it.each([
    ["Hello, world!", ["Hello", ",", " world", "!"]],
    ["It's don't", ["It", "'", "s", " don", "'", "t"]], // punctuation runs are cut before GPT-2's contractions
    ["12345 apples", ["123", "45", " apples"]],
    ["pay $100.00", ["pay", " ", "$", "100", ".", "00"]],
    ["a+b=c `x`", ["a", "+", "b", "=", "c", " `", "x", "`"]], // the backtick is not in the punctuation class
    ["  two   spaces\n\n\tend  ", [" ", " two", "  ", " spaces", "\n\n", "\t", "end", "  "]],
    ["日本語 😀👍🏽 café", ["日本語", " 😀👍🏽", " café"]],
    ["x\u0085y\uFEFFz", ["x", "\u0085", "y", "\uFEFF", "z"]], // U+0085 is whitespace to llama.cpp, U+FEFF is not
    ["١٢٣ ½", ["١٢٣", " ", "½"]],
    ["", []],
  ])("%j", (text, pieces) => {
    expect(pretokenize(text)).toEqual(pieces);
  });

  it("pieces always concatenate back to the text", () => {
    const rng = new Prng(1);
    const alphabet = [..."ab1 \n\t'.,$😀日é\u0301\u00a0"];
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: rng.int(0, 30) }, () => rng.pick(alphabet)).join("");
      const pieces = pretokenize(text);
      expect(pieces.join("")).toBe(text);
      expect(pieces.every((p) => p.length > 0)).toBe(true);
    }
  });
});
