import { afterAll, describe, expect, it } from "vitest";
import path from "node:path";
import { writeTinyModel } from "../test-support/tiny-model";
import { rewriteGguf, type GgufChange } from "../test-support/rewrite-gguf";
import { untrainableReason } from "./trainable-check";
import { str, type GgufMetadata } from "./values";
import type { GgufTensorToWrite } from "./write-gguf";

// A listed base marked trainable must be a file the trainer reads: each way a real download differs
// from Anneal's own layout is refused by name, from the header, without the file's path.

const tiny = writeTinyModel(5);
afterAll(() => tiny.remove());

const variant = (name: string, change: GgufChange): string => {
  const file = path.join(tiny.dir, `${name}.gguf`);
  rewriteGguf(tiny.model, file, change);
  return file;
};

describe("untrainableReason", () => {
  it("accepts Anneal's own layout", () => {
    expect(untrainableReason(tiny.model)).toBeNull();
  });

  it.each([
    ["another architecture", (m: GgufMetadata) => void (m["general.architecture"] = str("qwen2")), /^architecture qwen2: /],
    [
      "a half-precision tensor",
      (_: GgufMetadata, tensors: GgufTensorToWrite[]) =>
        tensors.map((t) => (t.name === "token_embd.weight" && "data" in t ? { name: t.name, dims: t.dims, ggmlType: 1, bytes: new Uint8Array(t.data.length * 2) } : t)),
      /^tensor token_embd\.weight is F16: the trainer reads F32 weights only$/,
    ],
    ["a tied output", (_: GgufMetadata, tensors: GgufTensorToWrite[]) => tensors.filter((t) => t.name !== "output.weight"), /^tensor output\.weight is missing \(a tied output is not read\)$/],
    [
      "Llama 3's rope_freqs",
      (_: GgufMetadata, tensors: GgufTensorToWrite[]) => [...tensors, { name: "rope_freqs.weight", dims: [8], data: new Float32Array(8).fill(1) }],
      /^tensor rope_freqs\.weight is not part of the layout the trainer reads$/,
    ],
    ["another pre-tokenizer", (m: GgufMetadata) => void (m["tokenizer.ggml.pre"] = str("qwen2")), /^its tokenizer cannot be reproduced by the trainer \(unsupported GGUF tokenizer gpt2\/qwen2\)$/],
  ])("refuses %s by name, without the path", (name, change, reason) => {
    const refusal = untrainableReason(variant(name.replace(/\W+/g, "-"), change));
    expect(refusal).toMatch(reason);
    expect(refusal).not.toContain(tiny.dir);
  });

  it("checks a file again when it changes", () => {
    const file = variant("changes", () => undefined);
    expect(untrainableReason(file)).toBeNull();
    variant("changes", (m) => void (m["general.architecture"] = str("qwen3")));
    expect(untrainableReason(file)).toMatch(/^architecture qwen3: /);
  });
});
