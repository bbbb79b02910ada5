// The PEFT export computes what llama.cpp serves, checked without PEFT installed: a float64 forward
// pass in Hugging Face's layout (the base's llama q/k rows unpermuted, each exported adapter applied
// as PEFT's Linear does, x·Wᵀ + scale·(x·Aᵀ)·Bᵀ with scale = lora_alpha / r) on the PEFT zip's
// adapter_config.json and adapter_model.safetensors gives llama.cpp's next-token log-probabilities
// with the GGUF adapter, on the random-weight real layouts. Were llama's B rows left permuted, it
// would not.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLoraGguf } from "../gguf/lora-gguf";
import { readTrainableGguf } from "../gguf/llama-gguf";
import { archOf } from "../model/config";
import { LORA_TARGET_OF_MODULE, type LoraModule } from "../model/lora";
import { hfReferenceLogprobs, type HfLora } from "../test-support/hf-reference-forward";
import { openLlamaCppReference } from "../test-support/llama-cpp-reference";
import { writeRealLayoutModel } from "../test-support/real-layout-models";
import { writeRealLayoutLora } from "../test-support/real-layout-lora";
import { SMALL_SHAPES } from "../test-support/real-layout-shapes";
import { peftKey, writePeftZip } from "./peft-adapter";
import { permutesQkRows, qkHeads, unpermuteQkRows } from "./qk-permutation";
import { readSafetensors } from "./safetensors";
import { readZip } from "./zip";

/** The real-layout parity tests' bound (real-layout-parity.test.ts): llama.cpp in F32 against float64. */
const BOUND = 2e-3;
const TEXT = "<|im_start|>user\nWhat is the capital of France? Answer in one word.<|im_end|>\n<|im_start|>assistant\nParis.";
const POSITIONS = 24;

function maxDifference(a: Float64Array[], b: Float64Array[]): number {
  let max = 0;
  a.forEach((row, t) => row.forEach((v, j) => (max = Math.max(max, Math.abs(v - b[t][j])))));
  return max;
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-peft-parity-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each([
  { label: "llama (q/k permuted), untied", shape: SMALL_SHAPES.llamaUntied },
  { label: "llama, tied, rope_freqs", shape: SMALL_SHAPES.llamaTiedRopeFreqs },
  { label: "qwen2", shape: SMALL_SHAPES.qwen2 },
  { label: "qwen3", shape: SMALL_SHAPES.qwen3 },
])("$label", ({ shape }) => {
  it("a Hugging Face-layout forward pass with the PEFT export gives llama.cpp's log-probabilities with the GGUF adapter", async () => {
    const modelPath = path.join(dir, `${shape.arch}-${shape.tiedOutput}.gguf`);
    const loraPath = modelPath.replace(/\.gguf$/, "-lora.gguf");
    writeRealLayoutModel(modelPath, shape, { seed: 3 });
    writeRealLayoutLora(loraPath, shape, { rank: 4, alpha: 8, seed: 7 });
    const base = readTrainableGguf(modelPath);
    const { config } = base;

    const reference = await openLlamaCppReference(modelPath);
    let tokens: number[];
    let served: Float64Array[];
    try {
      tokens = reference.model.tokenize(TEXT, true).slice(0, POSITIONS);
      served = await (await reference.withLora({ filePath: loraPath })).logprobs(tokens);
    } finally {
      await reference.dispose();
    }

    // The export, read as PEFT reads it: adapter_config.json and the safetensors' keys.
    const { adapters, alpha } = readLoraGguf(loraPath, config);
    const files = readZip(writePeftZip({ config, adapters, alpha, dropout: 0, baseModelName: "x" }), { maxUnpackedBytes: 64 << 20 });
    const adapterConfig = JSON.parse(Buffer.from(files.get("adapter_config.json")!).toString());
    const { tensors } = readSafetensors(files.get("adapter_model.safetensors")!);
    const peft: HfLora = { adapters: {}, scale: adapterConfig.lora_alpha / adapterConfig.r };
    for (let layer = 0; layer < config.nLayers; layer++) {
      for (const module of adapterConfig.target_modules as LoraModule[]) {
        const [a, b] = [tensors[peftKey(layer, module, "A")].data, tensors[peftKey(layer, module, "B")].data];
        peft.adapters[`blk.${layer}.${LORA_TARGET_OF_MODULE[module]}.weight`] = { a, b, rank: adapterConfig.r };
      }
    }
    // The base in Hugging Face's layout: llama's q/k rows as the converter found them.
    const hfWeights = { ...base.weights };
    for (let layer = 0; layer < config.nLayers; layer++) {
      for (const target of ["attn_q", "attn_k"]) {
        const name = `blk.${layer}.${target}.weight`;
        if (permutesQkRows(archOf(config), target)) hfWeights[name] = unpermuteQkRows(base.weights[name], qkHeads(config, target), config.dim);
      }
    }
    const ours = hfReferenceLogprobs(config, hfWeights, tokens, peft);
    const err = maxDifference(ours, served);
    const bare = maxDifference(hfReferenceLogprobs(config, hfWeights, tokens), served);
    let line = `${shape.arch}${shape.tiedOutput ? " tied" : ""}: max |Δlogprob| ${err.toExponential(2)} (without the adapter ${bare.toFixed(2)})`;
    expect(err).toBeLessThan(BOUND);
    expect(bare).toBeGreaterThan(10 * BOUND);
    if (archOf(config) === "llama") {
      // B rows left in GGUF's order on the Hugging Face base: the permutation is what makes it right.
      const stillPermuted: HfLora = { scale: peft.scale, adapters: { ...peft.adapters } };
      for (const [weight, adapter] of Object.entries(adapters)) stillPermuted.adapters[weight] = { ...stillPermuted.adapters[weight], b: adapter.b };
      const wrong = maxDifference(hfReferenceLogprobs(config, hfWeights, tokens, stillPermuted), served);
      line += `; B left permuted ${wrong.toFixed(2)}`;
      expect(wrong).toBeGreaterThan(10 * BOUND);
    }
    console.log(line);
  }, 180_000);
});
