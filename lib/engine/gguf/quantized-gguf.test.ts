// GGUF files whose tensors are not F32 read back through read-gguf exactly as ggml decodes them: one
// written by Anneal with F16/BF16/Q8_0 bytes, and a tiny llama model quantized by libllama's own
// llama_model_quantize (what llama-quantize does to a real download).

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tensorShapes, type LlamaConfig } from "../model/config";
import { randomNormal } from "../model/random-tensor";
import { Prng } from "../prng";
import { bitDifference, ggmlDequantizeRows, ggmlQuantizeRows, LLAMA_FTYPE, quantizeGgufWithLlama } from "../test-support/ggml-reference";
import { randomWeights, TINY_CONFIG, tinyTokenizer } from "../test-support/tiny-model";
import { GGML_TYPE, ggmlTypeName } from "./ggml-types";
import { encodeBf16, encodeF16 } from "./half-float";
import { ggufDims, writeLlamaGguf } from "./llama-gguf";
import { openGguf, type GgufFile } from "./read-gguf";
import { writeGguf } from "./write-gguf";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-quantized-gguf-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Every tensor of `file` read by Anneal and by ggml's to_float from the same bytes: the count of values
 *  compared, per type. */
function compareAllTensors(file: GgufFile): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of file.tensors) {
    const ours = file.readTensor(t.name);
    expect([t.name, bitDifference(ours, ggmlDequantizeRows(t.ggmlType, file.readTensorBytes(t.name)))]).toEqual([t.name, ""]);
    const type = ggmlTypeName(t.ggmlType);
    counts.set(type, (counts.get(type) ?? 0) + ours.length);
  }
  return counts;
}

describe("read-gguf on tensors stored in other ggml types", () => {
  const rng = new Prng(3);
  const f16 = randomNormal(rng, 96 * 5, 0.3);
  const bf16 = randomNormal(rng, 64 * 3, 30);
  const q8 = ggmlQuantizeRows(GGML_TYPE.Q8_0, randomNormal(rng, 64 * 4), 64);
  const file = path.join(dir, "mixed.gguf");
  writeGguf(file, {}, [
    { name: "w.f16", dims: [96, 5], ggmlType: GGML_TYPE.F16, bytes: bytesOf(encodeF16(f16)) },
    { name: "w.f32", dims: [7], data: Float32Array.of(1, -2, 3, NaN, Infinity, -0, 1e-40) },
    { name: "w.bf16", dims: [64, 3], ggmlType: GGML_TYPE.BF16, bytes: bytesOf(encodeBf16(bf16)) },
    { name: "w.q8_0", dims: [64, 4], ggmlType: GGML_TYPE.Q8_0, bytes: q8 },
    { name: "w.iq4_nl", dims: [32, 2], ggmlType: GGML_TYPE.IQ4_NL, bytes: new Uint8Array(36).fill(7) },
  ]);

  it("decodes F16, BF16 and Q8_0 tensors to ggml's bits and keeps their raw bytes", () => {
    const g = openGguf(file);
    try {
      const decoded = g.tensors.filter((t) => t.ggmlType !== GGML_TYPE.IQ4_NL);
      compareAllTensors({ ...g, tensors: decoded });
      expect(bitDifference(g.readTensorBytes("w.f16"), encodeF16(f16))).toBe("");
      expect(bitDifference(g.readTensorBytes("w.q8_0"), q8)).toBe("");
      // F16 holds these values to within half an F16 ulp.
      g.readTensor("w.f16").forEach((v, i) => expect(Math.abs(v - f16[i])).toBeLessThanOrEqual(Math.abs(f16[i]) * 2 ** -11 + 2 ** -25));
    } finally {
      g.close();
    }
  });

  it("reads a range of rows of a tensor's bytes, of any ggml type", () => {
    const g = openGguf(file);
    try {
      expect(bitDifference(g.readTensorBytes("w.q8_0", 1, 2), q8.subarray(34 * 2, 34 * 6))).toBe("");
      expect(bitDifference(g.readTensorBytes("w.bf16", 2), encodeBf16(bf16).subarray(128))).toBe("");
      expect(g.readTensorBytes("w.iq4_nl")).toEqual(new Uint8Array(36).fill(7));
      expect(() => g.readTensorBytes("w.q8_0", 3, 2)).toThrow(/4 rows/);
    } finally {
      g.close();
    }
  });

  it("refuses a type it does not decode by its name, without the file's path", () => {
    const g = openGguf(file);
    try {
      expect(() => g.readTensor("w.iq4_nl")).toThrow(/w\.iq4_nl is IQ4_NL/);
      try {
        g.readTensor("w.iq4_nl");
      } catch (error) {
        expect((error as Error).message).not.toContain(dir);
      }
    } finally {
      g.close();
    }
  });
});

describe("a llama GGUF quantized by libllama's llama_model_quantize", () => {
  // Widths that are multiples of 256, so Q4_K_M uses K-quants throughout.
  const tokenizer = tinyTokenizer();
  const config: LlamaConfig = { ...TINY_CONFIG, vocabSize: tokenizer.vocabSize, dim: 256, ffnDim: 512 };
  const weights = randomWeights(config, 5);
  const source = path.join(dir, "tiny-f32.gguf");
  writeLlamaGguf(source, { config, weights, tokenizer, name: "tiny-quantize-test" });

  for (const [ftype, name, error] of [
    [LLAMA_FTYPE.MOSTLY_Q8_0, "Q8_0", 0.01],
    [LLAMA_FTYPE.MOSTLY_Q4_K_M, "Q4_K_M", 0.12],
  ] as const) {
    it(`${name}: every tensor reads as ggml decodes it`, () => {
      const target = path.join(dir, `tiny-${name}.gguf`);
      quantizeGgufWithLlama(source, target, ftype);
      const g = openGguf(target);
      try {
        const shapes = tensorShapes(config);
        expect(g.tensors.map((t) => [t.name, t.dims]).sort()).toEqual(Object.entries(shapes).map(([n, s]) => [n, ggufDims(s)]).sort());
        const counts = compareAllTensors(g);
        // And the decoded weights are the model's own, up to the format's rounding.
        for (const t of g.tensors) {
          const original = weights[t.name];
          const decoded = g.readTensor(t.name);
          let err = 0;
          let norm = 0;
          decoded.forEach((v, i) => {
            err += (v - original[i]) ** 2;
            norm += original[i] ** 2;
          });
          expect([t.name, Math.sqrt(err / norm) < error]).toEqual([t.name, true]);
        }
        const summary = [...counts].map(([type, n]) => `${type} ${n}`).join(", ");
        console.log(`[llama_model_quantize ${name}] ${g.tensors.length} tensors, values compared bit-equal by type: ${summary}`);
        const types = [...counts.keys()].sort();
        expect(types).toEqual(name === "Q8_0" ? ["F32", "Q8_0"] : ["F32", "Q4_K", "Q6_K"]);
      } finally {
        g.close();
      }
    });
  }
});
