// F16_WEIGHTS writes what libllama's llama_model_quantize (MOSTLY_F16) makes of the same model in F32:
// every tensor's type and bits, and the file type.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openGguf, type GgufFile } from "../gguf/read-gguf";
import { F16_WEIGHTS } from "./f16-weights";
import { bitDifference, LLAMA_FTYPE, quantizeGgufWithLlama } from "./ggml-reference";
import { writeRealLayoutModel } from "./real-layout-models";
import { SMALL_SHAPES, type RealLayoutShape } from "./real-layout-shapes";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-f16-weights-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("F16_WEIGHTS", () => {
  it("writes the F16 file llama_model_quantize makes from the F32 one", () => {
    // Qwen2 (biases stay F32), its vocabulary cut to keep the file small.
    const shape: RealLayoutShape = { ...SMALL_SHAPES.qwen2, vocabSize: 1024 };
    const [f32, ours, libllama] = ["f32", "ours", "libllama"].map((n) => path.join(dir, `${n}.gguf`));
    writeRealLayoutModel(f32, shape);
    writeRealLayoutModel(ours, shape, { weights: F16_WEIGHTS });
    quantizeGgufWithLlama(f32, libllama, LLAMA_FTYPE.MOSTLY_F16);
    const [a, b] = [openGguf(ours), openGguf(libllama)];
    try {
      expect(a.metadata["general.file_type"]?.value).toBe(LLAMA_FTYPE.MOSTLY_F16);
      expect(b.metadata["general.file_type"]?.value).toBe(LLAMA_FTYPE.MOSTLY_F16);
      // libllama writes the tensors in its own order; llama.cpp reads them by name.
      const types = (f: GgufFile) => f.tensors.map((t) => [t.name, t.ggmlType]).sort();
      expect(types(a)).toEqual(types(b));
      expect(a.tensors.filter((t) => t.ggmlType === F16_WEIGHTS.ggmlType)).toHaveLength(1 + 7 * shape.nLayers);
      for (const t of a.tensors) expect([t.name, bitDifference(a.readTensorBytes(t.name), b.readTensorBytes(t.name))]).toEqual([t.name, ""]);
    } finally {
      a.close();
      b.close();
    }
  });
});
