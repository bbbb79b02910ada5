import { describe, expect, it } from "vitest";
import { i32Array, str } from "../gguf/values";
import { tinyTokenizer } from "../test-support/tiny-model";
import { END_OF_TEXT, IM_END } from "./chatml";
import { CHATML_TEMPLATE } from "./chatml-template";
import { tokenizerFromGguf, tokenizerToGguf } from "./tokenizer-gguf";

describe("tokenizer GGUF metadata", () => {
  const tok = tinyTokenizer();
  const m = tokenizerToGguf(tok);

  it("writes llama.cpp's gpt2 keys: control types for specials, ChatML ids and template", () => {
    expect(m["tokenizer.ggml.model"]).toEqual(str("gpt2"));
    expect(m["tokenizer.ggml.pre"]).toEqual(str("default"));
    const types = m["tokenizer.ggml.token_type"]?.value as number[];
    expect(types.filter((t) => t === 3)).toHaveLength(3);
    expect(types[tok.tokenId(IM_END)!]).toBe(3);
    expect(m["tokenizer.ggml.bos_token_id"]?.value).toBe(tok.tokenId(END_OF_TEXT));
    expect(m["tokenizer.ggml.eos_token_id"]?.value).toBe(tok.tokenId(IM_END));
    expect(m["tokenizer.ggml.add_bos_token"]?.value).toBe(false);
    expect(m["tokenizer.chat_template"]).toEqual(str(CHATML_TEMPLATE));
  });

  it("reads back the same tokenizer and refuses other pre-tokenizers", () => {
    expect(tokenizerFromGguf(m).spec).toEqual(tok.spec);
    expect(() => tokenizerFromGguf({ ...m, "tokenizer.ggml.pre": str("qwen2") })).toThrow(/unsupported/);
    // A user-defined token (type 4) is parsed as special by llama.cpp, but not by this tokenizer.
    const types = [...(m["tokenizer.ggml.token_type"]?.value as number[])];
    types[5] = 4;
    expect(() => tokenizerFromGguf({ ...m, "tokenizer.ggml.token_type": i32Array(types) })).toThrow(/unsupported/);
  });
});
