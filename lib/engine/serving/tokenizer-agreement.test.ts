import type { LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleExamples } from "../corpus/generate";
import { withAnswer } from "../corpus/example";
import { Prng } from "../prng";
import { writeTinyModel, type TinyModelFiles } from "../test-support/tiny-model";
import { renderChat } from "../tokenizer/chatml";
import { getLlamaRuntime } from "./llama-runtime";
import { textTokenizer, usesAnnealTokenizer } from "./text-tokenizer";

// llama.cpp must tokenize exactly as Anneal does, or the server would feed a model ids it was
// never trained on. Compared with llama.cpp's own tokenizer (parse_special = true).

const CURATED = [
  "Hello, world! It's 12345 apples; don't, you'll, we've, I'm, he'd",
  "  multiple   spaces\n\n\tend  ",
  "$100.00 a+b=c <tag> `code` ~x^y|z {\"k\": [1, 2]}",
  "日本語のテキスト 😀👍🏽🇫🇷 café naïve Ωμέγα Привет мир",
  "x\u0085y\uFEFFz\u00a0w\u2003v\u3000u\u200b",
  "١٢٣٤٥ 12 3456789 ½ ² Ⅻ 0x1F",
  "\u0000\u0001\u0007\u001b[31m\r\nb\rc\n",
  "𐗀𐗁 letters newer than llama.cpp's tables Ᲊ",
  "lone \uD800 surrogates \uDC00",
  "'s 's'S 'll'LL 're 've",
  "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n4<|im_end|>",
  "<|endoftext|><|im_start|><|im_end|><|im_end <|im_start",
  "e\u0301 combining marks, tabs\tand\u000bvertical",
  "", " ", "\n", "x  ",
];

const FUZZ_ALPHABET = [
  ..."abcXYZ019 '\n\t\r.,!?$+<=>^~|`\"{}[]()_-*/\\@#%&;:",
  "<|im_end|>", "<|im_start|>", "<|endoftext|>", "'s", "'ll", "  ", "123456", "é", "日本", "😀", "👍🏽",
  "\u0085", "\uFEFF", "\u00a0", "\u3000", "١٢", "½", "\u0301", "Ω", "\u200b", "𐗀", "Ᲊ",
];

function fuzzStrings(count: number): string[] {
  const rng = new Prng(7);
  const anyCodepoint = () => {
    const cp = rng.int(0, 0x10ffff - 0x800);
    return String.fromCodePoint(cp < 0xd800 ? cp : cp + 0x800); // skip the surrogate range
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: rng.int(0, 40) }, () => (rng.next() < 0.85 ? rng.pick(FUZZ_ALPHABET) : anyCodepoint())).join(""),
  );
}

let files: TinyModelFiles;
let model: LlamaModel;

beforeAll(async () => {
  files = writeTinyModel();
  model = await (await getLlamaRuntime()).loadModel({ modelPath: files.model });
});
afterAll(async () => {
  await model.dispose();
  files.remove();
});

describe("tokenizer agreement with llama.cpp", () => {
  const corpus = sampleExamples({ seed: 9, split: "heldout", count: 200 }).map((e) => renderChat(withAnswer(e)));

  it.each([
    ["curated edge cases", CURATED],
    ["rendered task conversations", corpus],
    ["fuzzed strings", fuzzStrings(3000)],
  ])("%s", (_, texts) => {
    const disagreements = texts.filter((text) => {
      const ours = files.tokenizer.encode(text, { parseSpecials: true });
      const theirs = model.tokenize(text, true);
      return ours.length !== theirs.length || ours.some((id, i) => id !== theirs[i]);
    });
    expect(disagreements).toEqual([]);
  });

  it("serves the model's prompts with Anneal's tokenizer, with llama.cpp's ids, specials parsed or not", () => {
    expect(usesAnnealTokenizer(model)).toBe(true);
    const tokenize = textTokenizer(model);
    const texts = [...CURATED, ...corpus.slice(0, 50), ...fuzzStrings(500)];
    for (const specials of [true, false]) {
      const disagreements = texts.filter((text) => JSON.stringify(tokenize(text, specials)) !== JSON.stringify(model.tokenize(text, specials)));
      expect(disagreements).toEqual([]);
    }
  });
});
