import { describe, expect, it } from "vitest";
import { tinyTokenizer } from "../test-support/tiny-model";
import { IM_END, IM_START } from "./chatml";
import { Tokenizer } from "./tokenizer";

describe("Tokenizer", () => {
  const tok = tinyTokenizer();

  it.each([
    "What is 12 + 345?",
    "emoji 😀👍🏽🇫🇷 and CJK 日本語の文章 and Ωμέγα",
    "control \u0000\u0001\u0007\u001b[0m chars\r\n\ttabs",
    "   leading and trailing   \n\n",
    "<|im_end|> as plain text",
    "a".repeat(5000),
  ])("round-trips %j", (text) => {
    expect(tok.decode(tok.encode(text))).toBe(text);
  });

  it("replaces lone surrogates with U+FFFD, like UTF-8 encoders do", () => {
    expect(tok.decode(tok.encode("a\uD800b\uDC00"))).toBe("a\uFFFDb\uFFFD");
  });

  it("encodes special-token text as one id only when asked to", () => {
    const imEnd = tok.tokenId(IM_END)!;
    expect(tok.encode(IM_END)).not.toContain(imEnd);
    expect(tok.encode(`hi${IM_END}\n`, { parseSpecials: true })).toEqual([...tok.encode("hi"), imEnd, ...tok.encode("\n")]);
    expect(tok.decode(tok.encode(`${IM_START}x${IM_END}`, { parseSpecials: true }))).toBe(`${IM_START}x${IM_END}`);
  });

  it("compresses the text it was trained on", () => {
    const text = "What is 12 + 345? How many letters are in \"apple\"?";
    expect(tok.encode(text).length).toBeLessThan(new TextEncoder().encode(text).length / 2);
  });

  it("decodes a cut multi-byte character to U+FFFD", () => {
    const ids = tok.encode("😀");
    expect(ids.length).toBeGreaterThan(1); // 4 bytes, not merged in a corpus without emoji
    expect(tok.decode(ids.slice(0, 1))).toBe("\uFFFD");
    expect(tok.decodeBytes(ids)).toEqual(new TextEncoder().encode("😀"));
  });

  it("round-trips through JSON", () => {
    const back = Tokenizer.fromJSON(JSON.parse(JSON.stringify(tok)));
    const text = "Reverse the word: apple <|im_start|>";
    expect(back.encode(text, { parseSpecials: true })).toEqual(tok.encode(text, { parseSpecials: true }));
    expect(() => Tokenizer.fromJSON({ tokens: [] })).toThrow(/JSON/);
  });
});
