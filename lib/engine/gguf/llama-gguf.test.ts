import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { randomLora, randomWeights, TINY_CONFIG, tinyTokenizer } from "../test-support/tiny-model";
import { readLlamaGguf, writeLlamaGguf } from "./llama-gguf";
import { readLoraGguf, writeLoraGguf } from "./lora-gguf";
import { openGguf } from "./read-gguf";
import { u32 } from "./values";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-llama-gguf-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const bitsEqual = (a: Float32Array, b: Float32Array) =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

describe("llama GGUF", () => {
  const tokenizer = tinyTokenizer();
  const config = { ...TINY_CONFIG, vocabSize: tokenizer.vocabSize };
  const weights = randomWeights(config, 3);
  const file = path.join(dir, "model.gguf");
  writeLlamaGguf(file, { config, weights, tokenizer, name: "t", metadata: { "anneal.step": u32(12) } });

  it("round-trips config, weights, tokenizer and extra metadata", () => {
    const back = readLlamaGguf(file);
    // eps and rope base are stored as f32, as llama.cpp reads them.
    expect(back.config).toEqual({ ...config, normEps: Math.fround(config.normEps) });
    expect(Object.keys(back.weights).sort()).toEqual(Object.keys(weights).sort());
    for (const [name, w] of Object.entries(weights)) expect(bitsEqual(back.weights[name], w), name).toBe(true);
    expect(back.tokenizer.spec).toEqual(tokenizer.spec);
    expect(back.metadata["anneal.step"]).toEqual(u32(12));
    expect(back.metadata["tokenizer.ggml.pre"]?.value).toBe("default");
  });

  it("stores a [out, in] weight with GGUF dims [in, out]", () => {
    const g = openGguf(file);
    expect(g.tensors.find((t) => t.name === "blk.0.ffn_up.weight")?.dims).toEqual([config.dim, config.ffnDim]);
    expect(g.tensors.find((t) => t.name === "blk.0.attn_k.weight")?.dims).toEqual([config.dim, 32]);
    g.close();
  });

  it("refuses a missing weight and a reserved metadata key", () => {
    const { "output.weight": _, ...partial } = weights;
    expect(() => writeLlamaGguf(path.join(dir, "x.gguf"), { config, weights: partial, tokenizer, name: "x" })).toThrow(/output.weight/);
    expect(() =>
      writeLlamaGguf(path.join(dir, "x.gguf"), { config, weights, tokenizer, name: "x", metadata: { "llama.block_count": u32(9) } }),
    ).toThrow(/reserved/);
  });

  it("round-trips a LoRA adapter", () => {
    const adapters = randomLora(config, 5, 4);
    const loraFile = path.join(dir, "lora.gguf");
    writeLoraGguf(loraFile, { config, adapters, alpha: 8 });
    const back = readLoraGguf(loraFile, config);
    expect(back.alpha).toBe(8);
    expect(back.metadata["general.type"]?.value).toBe("adapter");
    expect(Object.keys(back.adapters).sort()).toEqual(Object.keys(adapters).sort());
    for (const [name, a] of Object.entries(adapters)) {
      expect(back.adapters[name].rank).toBe(4);
      expect(bitsEqual(back.adapters[name].a, a.a) && bitsEqual(back.adapters[name].b, a.b)).toBe(true);
    }
    const g = openGguf(loraFile);
    expect(g.tensors.find((t) => t.name === "blk.0.ffn_up.weight.lora_a")?.dims).toEqual([config.dim, 4]);
    expect(g.tensors.find((t) => t.name === "blk.0.ffn_up.weight.lora_b")?.dims).toEqual([4, config.ffnDim]);
    g.close();
  });
});
