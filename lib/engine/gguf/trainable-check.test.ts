import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeRealLayoutModel } from "../test-support/real-layout-models";
import { SMALL_SHAPES, type RealLayoutShape } from "../test-support/real-layout-shapes";
import { rewriteGguf, type GgufChange } from "../test-support/rewrite-gguf";
import { writeTinyModel } from "../test-support/tiny-model";
import { GGML_TYPE } from "./ggml-types";
import { ggufTrainability, untrainableReason } from "./trainable-check";
import { f32, str, u32, type GgufMetadata } from "./values";
import type { GgufTensorToWrite } from "./write-gguf";

// A listed base marked trainable must be a file the trainer reads: Anneal's own (full weights or LoRA)
// and the llama, qwen2 and qwen3 chat models in llama.cpp's layout (LoRA). Whatever the trainer would
// not compute as llama.cpp does is refused by name, from the header, without the file's path.

const tiny = writeTinyModel(5);
afterAll(() => tiny.remove());

/** The real layouts with their vocabularies cut to 1,024 tokens (a small file; the layout is the same). */
const real = (shape: RealLayoutShape, name: string): string => {
  const file = path.join(tiny.dir, `${name}.gguf`);
  if (!fs.existsSync(file)) writeRealLayoutModel(file, { ...shape, vocabSize: 1024 });
  return file;
};
const REAL = {
  llamaUntied: () => real(SMALL_SHAPES.llamaUntied, "llama-untied"),
  llamaTiedRopeFreqs: () => real(SMALL_SHAPES.llamaTiedRopeFreqs, "llama-tied-rope-freqs"),
  qwen2: () => real(SMALL_SHAPES.qwen2, "qwen2"),
  qwen3: () => real(SMALL_SHAPES.qwen3, "qwen3"),
  /** K-quants need rows of 256. */
  qwen2Wide: () => real({ ...SMALL_SHAPES.qwen2, dim: 256, ffnDim: 512 }, "qwen2-wide"),
};

const variant = (source: string, name: string, change: GgufChange): string => {
  const file = path.join(tiny.dir, `${name}.gguf`);
  rewriteGguf(source, file, change);
  return file;
};

const setKey = (key: string, value: GgufMetadata[string]) => (m: GgufMetadata) => void (m[key] = value);
const dropTensor = (name: string) => (_: GgufMetadata, tensors: GgufTensorToWrite[]) => tensors.filter((t) => t.name !== name);
const addTensor = (name: string, dims: number[]) => (_: GgufMetadata, tensors: GgufTensorToWrite[]) => [
  ...tensors,
  { name, dims, data: new Float32Array(dims.reduce((a, b) => a * b, 1)).fill(1) },
];
/** `name` stored as `type` (bytes of the right length; the header is all the check reads). */
const retype = (name: string, type: number, blockBytes: number, blockSize: number) => (_: GgufMetadata, tensors: GgufTensorToWrite[]) =>
  tensors.map((t) => (t.name === name && "data" in t ? { name, dims: t.dims, ggmlType: type, bytes: new Uint8Array((t.data.length / blockSize) * blockBytes) } : t));

describe("ggufTrainability", () => {
  it("accepts Anneal's own layout, for full weights", () => {
    expect(ggufTrainability(tiny.model)).toEqual({ trainable: true, arch: "llama", fullWeights: true });
    expect(untrainableReason(tiny.model)).toBeNull();
  });

  it.each([
    ["llama, untied (Llama 3.0)", REAL.llamaUntied, "llama"],
    ["llama, tied, rope_freqs (Llama 3.2)", REAL.llamaTiedRopeFreqs, "llama"],
    ["qwen2 (Qwen2.5)", REAL.qwen2, "qwen2"],
    ["qwen3", REAL.qwen3, "qwen3"],
  ] as const)("accepts %s in llama.cpp's layout, for LoRA", (_, file, arch) => {
    expect(ggufTrainability(file())).toEqual({ trainable: true, arch, fullWeights: false });
  });

  it.each([
    ["Q8_0 and F16 weights", () => variant(REAL.qwen3(), "qwen3-q8", (m, t) => retype("blk.0.attn_q.weight", GGML_TYPE.Q8_0, 34, 32)(m, retype("token_embd.weight", GGML_TYPE.F16, 2, 1)(m, t)))],
    ["a tied output", () => variant(tiny.model, "tiny-tied", dropTensor("output.weight"))],
    ["another pre-tokenizer", () => variant(tiny.model, "tiny-pre", setKey("tokenizer.ggml.pre", str("qwen2")))],
    ["a converter's key", () => variant(tiny.model, "tiny-quantization-version", setKey("general.quantization_version", u32(2)))],
  ])("accepts a llama file Anneal did not write (%s), for LoRA only", (_, file) => {
    expect(ggufTrainability(file())).toEqual({ trainable: true, arch: expect.any(String), fullWeights: false });
  });

  it.each([
    ["another architecture (gemma2)", () => variant(REAL.qwen2(), "gemma2", setKey("general.architecture", str("gemma2"))), /^architecture gemma2: /],
    ["another architecture (phi3)", () => variant(REAL.llamaUntied(), "phi3", setKey("general.architecture", str("phi3"))), /^architecture phi3: /],
    [
      "a weight type the trainer does not decode",
      () => variant(REAL.qwen2Wide(), "q2k", retype("token_embd.weight", GGML_TYPE.Q2_K, 84, 256)),
      /^tensor token_embd\.weight is Q2_K: the trainer reads F32, F16, .*Q6_K weights$/,
    ],
    [
      "YaRN RoPE scaling",
      () => variant(REAL.qwen2(), "yarn", (m) => void Object.assign(m, { "qwen2.rope.scaling.type": str("yarn"), "qwen2.rope.scaling.factor": f32(4) })),
      /^RoPE scaling yarn ×4: /,
    ],
    ["linear RoPE scaling", () => variant(REAL.llamaUntied(), "linear", setKey("llama.rope.scaling.factor", f32(2))), /^RoPE scaling linear ×2: /],
    ["sliding-window attention", () => variant(REAL.qwen2(), "swa", setKey("qwen2.attention.sliding_window", u32(4096))), /^qwen2\.attention\.sliding_window: /],
    ["a mixture of experts", () => variant(REAL.llamaUntied(), "moe", setKey("llama.expert_count", u32(8))), /^llama\.expert_count 8: /],
    ["a missing tensor", () => variant(REAL.qwen3(), "missing", dropTensor("blk.1.ffn_up.weight")), /^tensor blk\.1\.ffn_up\.weight is missing$/],
    ["a missing q/k norm", () => variant(REAL.qwen3(), "no-norm", dropTensor("blk.0.attn_k_norm.weight")), /^tensor blk\.0\.attn_k_norm\.weight is missing$/],
    ["an unknown tensor", () => variant(REAL.qwen2(), "output-bias", addTensor("output.bias", [1024])), /^tensor output\.bias is not part of the qwen2 layout/],
    ["rope_freqs outside llama", () => variant(REAL.qwen3(), "qwen3-freqs", addTensor("rope_freqs.weight", [16])), /^tensor rope_freqs\.weight is not part of the qwen3 layout/],
    ["partial RoPE", () => variant(REAL.llamaUntied(), "rope-dim", setKey("llama.rope.dimension_count", u32(8))), /^llama\.rope\.dimension_count 8: /],
    ["a key width that differs from the value width", () => variant(REAL.qwen3(), "kv-width", setKey("qwen3.attention.value_length", u32(16))), /^qwen3\.attention\.value_length 16 /],
  ])("refuses %s by name, without the path", (_, file, reason) => {
    const refusal = untrainableReason(file());
    expect(refusal).toMatch(reason);
    expect(refusal).not.toContain(tiny.dir);
  });

  it("checks a file again when it changes", () => {
    const file = variant(tiny.model, "changes", () => undefined);
    expect(untrainableReason(file)).toBeNull();
    variant(tiny.model, "changes", setKey("general.architecture", str("gemma2")));
    expect(untrainableReason(file)).toMatch(/^architecture gemma2: /);
  });
});
