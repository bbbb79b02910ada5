// The merged GGUF (merge-lora.ts) served by llama.cpp gives what llama.cpp gives serving the base with
// the GGUF adapter, within F16's rounding: on random-weight files in the layouts people download
// (llama with its q/k rows in llama.cpp's permuted order, qwen2 with biases, qwen3 with q/k norms) and
// on a base llama.cpp quantized to Q8_0. The file keeps every metadata key of the base and is made a
// few rows at a time.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LLAMA_FTYPE, quantizeGgufWithLlama } from "../test-support/ggml-reference";
import { openLlamaCppReference } from "../test-support/llama-cpp-reference";
import { writeRealLayoutLora } from "../test-support/real-layout-lora";
import { writeRealLayoutModel } from "../test-support/real-layout-models";
import { SMALL_SHAPES, type RealLayoutShape } from "../test-support/real-layout-shapes";
import { rewriteGguf } from "../test-support/rewrite-gguf";
import { GGML_TYPE } from "./ggml-types";
import { mergeLoraIntoGguf } from "./merge-lora";
import { openGguf } from "./read-gguf";
import { writeGgufStream } from "./write-gguf";

/** Part 1's parity bound for F16 (max |Δlogprob| over the vocabulary at every position). */
const F16_BOUND = 2e-3;
/** The adapter must move the log-probabilities by this many bounds, so an unmerged file fails. */
const ADAPTER_MARGIN = 10;
const TEXT =
  "<|im_start|>user\nWhat is the capital of France? Answer in one word, please.<|im_end|>\n<|im_start|>assistant\nParis.<|im_end|>\n" +
  "<|im_start|>user\nAnd of Japan?<|im_end|>\n<|im_start|>assistant\nTokyo.";
const POSITIONS = 24;

const maxDifference = (a: Float64Array[], b: Float64Array[]) =>
  a.reduce((max, row, t) => row.reduce((m, v, j) => Math.max(m, Math.abs(v - b[t][j])), max), 0);

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-merge-lora-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The merge done the plain way, whole tensors in float32: W + scale·B·A written as an F32 GGUF. */
function mergeInF32(basePath: string, adapterPath: string, target: string): void {
  const adapter = openGguf(adapterPath);
  try {
    const alpha = Number(adapter.metadata["adapter.lora.alpha"]?.value);
    rewriteGguf(basePath, target, (metadata, tensors) => {
      metadata["general.file_type"] = { type: "u32", value: 0 };
      for (const t of tensors) {
        if (!("data" in t) || !adapter.tensors.some((x) => x.name === `${t.name}.lora_a`)) continue;
        const [inDim, outDim] = t.dims;
        const a = adapter.readTensor(`${t.name}.lora_a`);
        const b = adapter.readTensor(`${t.name}.lora_b`);
        const rank = a.length / inDim;
        for (let o = 0; o < outDim; o++) {
          for (let i = 0; i < inDim; i++) {
            let delta = 0;
            for (let r = 0; r < rank; r++) delta += (alpha / rank) * b[o * rank + r] * a[r * inDim + i];
            t.data[o * inDim + i] += delta;
          }
        }
      }
    });
  } finally {
    adapter.close();
  }
}

/** llama.cpp's log-probabilities of each file (with the adapter where one is given) at the same tokens. */
async function served(files: { path: string; adapter?: string }[]): Promise<Float64Array[][]> {
  const out: Float64Array[][] = [];
  let tokens: number[] | undefined;
  for (const file of files) {
    const reference = await openLlamaCppReference(file.path);
    try {
      tokens ??= reference.model.tokenize(TEXT, true).slice(0, POSITIONS);
      out.push(await (file.adapter ? await reference.withLora({ filePath: file.adapter }) : reference).logprobs(tokens));
    } finally {
      await reference.dispose();
    }
  }
  return out;
}

function mergeToFile(basePath: string, adapterPath: string, name: string): string {
  const mergedPath = basePath.replace(/\.gguf$/, "-merged.gguf");
  const merged = mergeLoraIntoGguf({ basePath, adapterPath, name });
  writeGgufStream(mergedPath, merged);
  expect(fs.statSync(mergedPath).size).toBe(merged.byteLength);
  return mergedPath;
}

/** Every 2-D tensor of both files has the same bytes. */
function expectSameMatrices(aPath: string, bPath: string): void {
  const a = openGguf(aPath);
  const b = openGguf(bPath);
  try {
    for (const t of a.tensors.filter((x) => x.dims.length === 2)) {
      expect(b.tensors.find((x) => x.name === t.name)?.ggmlType, t.name).toBe(t.ggmlType);
      expect(Buffer.from(a.readTensorBytes(t.name)).equals(Buffer.from(b.readTensorBytes(t.name))), t.name).toBe(true);
    }
  } finally {
    a.close();
    b.close();
  }
}

/**
 * The merged file against llama.cpp serving `servedBase` (the base, or its weights decoded to F32)
 * with the adapter: the merge in float32 gives what llama.cpp computes with the adapter (so A and B
 * are applied the right way round, scaled by alpha/rank, on rows in the base's own order), and the
 * merged F16 file is that merge as llama.cpp's own F16 conversion (llama_model_quantize MOSTLY_F16)
 * writes it, byte for byte. F16's rounding is what separates it from the served adapter.
 */
async function expectMergeOfAdapter(label: string, basePath: string, servedBase: string, adapterPath: string, mergedPath: string) {
  const f32Merge = basePath.replace(/\.gguf$/, "-f32-merge.gguf");
  const llamaF16 = basePath.replace(/\.gguf$/, "-llama-f16.gguf");
  mergeInF32(basePath, adapterPath, f32Merge);
  quantizeGgufWithLlama(f32Merge, llamaF16, LLAMA_FTYPE.MOSTLY_F16);
  expectSameMatrices(mergedPath, llamaF16);

  const [base, withAdapter, inF32, merged] = await served([{ path: servedBase }, { path: servedBase, adapter: adapterPath }, { path: f32Merge }, { path: mergedPath }]);
  const f32Err = maxDifference(inF32, withAdapter);
  const f16Err = maxDifference(merged, withAdapter);
  const moved = maxDifference(base, withAdapter);
  console.log(
    `${label}: merged in F32 vs base + adapter max |Δlogprob| ${f32Err.toExponential(2)}; the merged F16 file ${f16Err.toExponential(2)} ` +
      `(F16's rounding, the same file as llama.cpp's F16 conversion); the adapter moves them by up to ${moved.toFixed(2)}`,
  );
  expect(f32Err).toBeLessThan(F16_BOUND);
  expect(moved).toBeGreaterThan(ADAPTER_MARGIN * f16Err);
  return { merged };
}

const VARIANTS: { label: string; shape: RealLayoutShape }[] = [
  { label: "llama (q/k rows in llama.cpp's permuted order), untied", shape: SMALL_SHAPES.llamaUntied },
  { label: "qwen2 (q/k/v biases)", shape: SMALL_SHAPES.qwen2 },
  { label: "qwen3 (q/k norms)", shape: SMALL_SHAPES.qwen3 },
];

describe.each(VARIANTS)("$label, F32 base", ({ label, shape }) => {
  it("merged to F16 is base + adapter as llama.cpp applies it, in llama.cpp's F16, with the base's metadata", async () => {
    const basePath = path.join(dir, `${shape.arch}.gguf`);
    const adapterPath = path.join(dir, `${shape.arch}-lora.gguf`);
    writeRealLayoutModel(basePath, shape, { seed: 3 });
    writeRealLayoutLora(adapterPath, shape, { rank: 4, alpha: 8, seed: 4 });
    const mergedPath = mergeToFile(basePath, adapterPath, "merged test model");
    await expectMergeOfAdapter(label, basePath, basePath, adapterPath, mergedPath);

    const source = openGguf(basePath);
    const file = openGguf(mergedPath);
    try {
      const { "general.file_type": fileType, "general.name": name, ...rest } = file.metadata;
      const { "general.file_type": _, "general.name": __, ...baseRest } = source.metadata;
      expect(rest).toEqual(baseRest);
      expect(Object.keys(file.metadata)).toEqual(Object.keys(source.metadata));
      expect(fileType).toEqual({ type: "u32", value: 1 });
      expect(name).toEqual({ type: "str", value: "merged test model" });
      expect(file.tensors.map((t) => [t.name, t.dims])).toEqual(source.tensors.map((t) => [t.name, t.dims]));
      for (const t of file.tensors) expect(t.ggmlType, t.name).toBe(t.dims.length === 2 ? GGML_TYPE.F16 : GGML_TYPE.F32);
      // 1-D tensors are the base's bits.
      for (const t of source.tensors.filter((x) => x.dims.length === 1)) expect(file.readTensorBytes(t.name)).toEqual(source.readTensorBytes(t.name));
    } finally {
      source.close();
      file.close();
    }
  }, 180_000);
});

describe("a qwen3 base that llama.cpp quantized to Q8_0", () => {
  it("merged to F16 is its decoded weights + adapter as llama.cpp applies it, in llama.cpp's F16", async () => {
    const shape = SMALL_SHAPES.qwen3;
    const f32Path = path.join(dir, "qwen3-q8-source.gguf");
    const q8Path = path.join(dir, "qwen3-q8_0.gguf");
    const decodedPath = path.join(dir, "qwen3-q8_0-decoded.gguf");
    const adapterPath = path.join(dir, "qwen3-q8_0-lora.gguf");
    writeRealLayoutModel(f32Path, shape, { seed: 5 });
    quantizeGgufWithLlama(f32Path, q8Path, LLAMA_FTYPE.MOSTLY_Q8_0);
    const q8File = openGguf(q8Path);
    expect(q8File.tensors.find((t) => t.name === "blk.0.attn_q.weight")?.ggmlType).toBe(GGML_TYPE.Q8_0);
    q8File.close();
    // The Q8_0 weights as float32: what the merge starts from, served without Q8_0's rounding of
    // each projection's input (which the merged F16 file does not have either).
    rewriteGguf(q8Path, decodedPath, (metadata) => {
      metadata["general.file_type"] = { type: "u32", value: 0 };
    });
    writeRealLayoutLora(adapterPath, shape, { rank: 8, alpha: 16, seed: 6 });
    const mergedPath = mergeToFile(q8Path, adapterPath, "merged q8_0");
    const { merged } = await expectMergeOfAdapter("qwen3 Q8_0", q8Path, decodedPath, adapterPath, mergedPath);
    const [q8, q8WithAdapter, decoded] = await served([{ path: q8Path }, { path: q8Path, adapter: adapterPath }, { path: decodedPath }]);
    console.log(
      `qwen3 Q8_0: the merged F16 file vs the Q8_0 file + adapter max |Δlogprob| ${maxDifference(merged, q8WithAdapter).toExponential(2)}; ` +
        `the Q8_0 file vs its weights decoded to F32 (Q8_0 rounds each projection's input there) ${maxDifference(q8, decoded).toExponential(2)}`,
    );
  }, 180_000);
});

describe("memory", () => {
  it("is made a few rows at a time: no chunk after the header is larger than 4 MB while the embedding is 39 MB", () => {
    const shape = SMALL_SHAPES.qwen2;
    const basePath = path.join(dir, "qwen2-memory.gguf");
    const adapterPath = path.join(dir, "qwen2-memory-lora.gguf");
    writeRealLayoutModel(basePath, shape, { seed: 7 });
    writeRealLayoutLora(adapterPath, shape, { rank: 16, seed: 8 });
    const embedding = 4 * shape.dim * shape.vocabSize;
    const merged = mergeLoraIntoGguf({ basePath, adapterPath, name: "m" });
    let largest = 0;
    let total = 0;
    for (const chunk of merged.chunks()) {
      total += chunk.byteLength;
      if (total > chunk.byteLength) largest = Math.max(largest, chunk.byteLength); // after the header (the tokenizer: 5.9 MB)
    }
    console.log(`qwen2 small: ${(total / 1e6).toFixed(1)} MB streamed, largest chunk after the header ${(largest / 1e6).toFixed(1)} MB (the F32 embedding is ${(embedding / 1e6).toFixed(1)} MB)`);
    expect(total).toBe(merged.byteLength);
    expect(largest).toBeLessThanOrEqual(4 << 20);
    expect(embedding).toBeGreaterThan(8 * largest);
  }, 60_000);
});

describe("refusals", () => {
  it("an adapter of another architecture, or of a shape the base does not have", () => {
    const basePath = path.join(dir, "llama-refusals.gguf");
    writeRealLayoutModel(basePath, SMALL_SHAPES.llamaUntied, { seed: 9 });
    const otherArch = path.join(dir, "qwen2-for-refusals-lora.gguf");
    writeRealLayoutLora(otherArch, SMALL_SHAPES.qwen2, { seed: 9 });
    expect(() => mergeLoraIntoGguf({ basePath, adapterPath: otherArch, name: "x" })).toThrow(/adapter is for a qwen2 model, the base is llama/);
    const wider = path.join(dir, "llama-wider-lora.gguf");
    writeRealLayoutLora(wider, { ...SMALL_SHAPES.llamaUntied, dim: 128 }, { seed: 9 });
    const error = (() => {
      try {
        mergeLoraIntoGguf({ basePath, adapterPath: wider, name: "x" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.message).toMatch(/the adapter of blk\.0\.attn_q\.weight has A \[128,4\] and B \[4,128\], which do not fit its \[64,64\]/);
    expect(error?.message).not.toContain(dir);
  });
});
