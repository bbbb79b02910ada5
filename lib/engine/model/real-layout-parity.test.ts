// The trainer runs the chat models people download as llama.cpp does: random-weight GGUFs in the exact
// layouts of Llama 3.0 (untied), Llama 3.2 (tied, rope_freqs), Qwen2.5 and Qwen3 (all with grouped-query
// attention and their real vocabularies), read by readTrainableGguf, give llama.cpp's next-token
// log-probabilities at every position, with and without a LoRA adapter on every projection (written by
// writeLoraGguf, applied by llama.cpp). Each thing an architecture adds is shown to matter: forward
// passes that get it wrong (the other RoPE pairing, q/k norms dropped, frequency factors ignored, a
// head that is not the tied embedding, biases dropped) land far outside the bound. Every fixture's
// attention is checked to be peaked, so no position bug hides in a uniform average.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeLoraGguf } from "../gguf/lora-gguf";
import { readPackedBase, readTrainableGguf, type TrainableGgufContents } from "../gguf/llama-gguf";
import { Prng } from "../prng";
import { logSoftmax } from "../serving/generate";
import { firstLayerAttention } from "../test-support/attention-peakedness";
import { LLAMA_FTYPE, quantizeGgufWithLlama } from "../test-support/ggml-reference";
import { openLlamaCppReference, type LlamaCppReference } from "../test-support/llama-cpp-reference";
import { writeRealLayoutModel } from "../test-support/real-layout-models";
import { SMALL_SHAPES, type RealLayoutShape } from "../test-support/real-layout-shapes";
import { archOf, type LlamaConfig, type LlamaWeights } from "./config";
import type { FrozenBase } from "./frozen-base";
import { LlamaModel, type LlamaModelLora } from "./llama-model";
import { LORA_TARGETS } from "./lora";
import { randomNormal } from "./random-tensor";

/** engine.md: llama.cpp in F32 (flash attention off, F32 KV cache) matches a float64 forward to ~1e-5. */
const BOUND = 2e-3;
/** A wrong forward pass must miss by this many bounds at least. */
const MUTATION_MARGIN = 10;
const TEXT =
  "<|im_start|>user\nWhat is the capital of France? Answer in one word, please.<|im_end|>\n<|im_start|>assistant\nParis.<|im_end|>\n" +
  "<|im_start|>user\nAnd of Japan? 日本語 is fine too.<|im_end|>\n<|im_start|>assistant\nTokyo (東京).";
/** Positions compared (llama.cpp hands back a position's logits as a Map over the whole vocabulary). */
const POSITIONS = 32;

interface Mutation {
  name: string;
  /** The wrong model: a changed config, and weights for it. */
  config: (c: LlamaConfig) => LlamaConfig;
  weights?: (w: LlamaWeights, c: LlamaConfig) => LlamaWeights;
}

const flipRope: Mutation = { name: "the other RoPE pairing", config: (c) => ({ ...c, ropeStyle: c.ropeStyle === "neox" ? "norm" : "neox" }) };

const VARIANTS: { label: string; shape: RealLayoutShape; mutations: Mutation[] }[] = [
  { label: "llama, untied (Llama 3.0)", shape: SMALL_SHAPES.llamaUntied, mutations: [flipRope] },
  {
    label: "llama, tied, rope_freqs (Llama 3.2)",
    shape: SMALL_SHAPES.llamaTiedRopeFreqs,
    mutations: [
      flipRope,
      { name: "frequency factors ignored", config: ({ ropeFreqFactors: _, ...c }) => c },
      {
        name: "a head that is not the tied embedding",
        config: (c) => ({ ...c, tiedOutput: false }),
        weights: (w, c) => ({ ...w, "output.weight": randomNormal(new Prng(9), c.vocabSize * c.dim, 1 / Math.sqrt(c.dim)) }),
      },
    ],
  },
  { label: "qwen2 (Qwen2.5)", shape: SMALL_SHAPES.qwen2, mutations: [flipRope, { name: "q/k/v biases dropped", config: (c) => ({ ...c, qkvBias: false }) }] },
  { label: "qwen3", shape: SMALL_SHAPES.qwen3, mutations: [flipRope, { name: "q/k norms dropped", config: (c) => ({ ...c, qkNorm: false }) }] },
];

/** The largest |Δ| between our log-probabilities (from logits [T,V]) and llama.cpp's rows. */
function maxDifference(logits: Float32Array, rows: Float64Array[], V: number): number {
  let max = 0;
  rows.forEach((row, t) => {
    const ours = logSoftmax(logits.subarray(t * V, (t + 1) * V));
    for (let j = 0; j < V; j++) max = Math.max(max, Math.abs(ours[j] - row[j]));
  });
  return max;
}

/** Peaked: a query's largest weight is half its attention or more on average, and its rows' entropy at
 *  most half the uniform row's (a uniform fixture, where position bugs hide, fails this). */
const PEAKED = { minMeanMaxWeight: 0.5, maxEntropyRatio: 0.5 };
function expectPeakedAttention(config: LlamaConfig, weights: Record<string, Float32Array>, tokens: number[]): void {
  const { meanMaxWeight, meanEntropyRatio } = firstLayerAttention(config, weights, tokens);
  console.log(`${archOf(config)} attention: mean largest weight ${meanMaxWeight.toFixed(2)}, entropy ${meanEntropyRatio.toFixed(2)} of uniform`);
  expect(meanMaxWeight).toBeGreaterThan(PEAKED.minMeanMaxWeight);
  expect(meanEntropyRatio).toBeLessThan(PEAKED.maxEntropyRatio);
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-real-parity-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each(VARIANTS)("$label", ({ shape, mutations }) => {
  let modelPath: string;
  let base: TrainableGgufContents;
  let reference: LlamaCppReference;
  let tokens: number[];
  let expected: Float64Array[];

  beforeAll(async () => {
    modelPath = path.join(dir, `${shape.arch}-${shape.tiedOutput}-${shape.llama3Rope ? "rope" : ""}.gguf`);
    writeRealLayoutModel(modelPath, shape, { seed: 3 });
    base = readTrainableGguf(modelPath);
    reference = await openLlamaCppReference(modelPath);
    tokens = reference.model.tokenize(TEXT, true).slice(0, POSITIONS);
    expected = await reference.logprobs(tokens);
  }, 120_000);
  afterAll(async () => {
    await reference?.dispose();
  });

  /** Our logits at every position of `tokens` for a config and weights (and adapters). */
  const logits = (config: LlamaConfig, weights: LlamaWeights, lora?: LlamaModelLora) => {
    const model = new LlamaModel(config, { weights, lora });
    const batch = { tokens: Int32Array.from(tokens), targets: new Int32Array(tokens.length).fill(-1), batchSize: 1, seqLen: tokens.length };
    return { model, logits: model.logits(batch) };
  };

  it("reads as a LoRA base of its architecture, not as Anneal's own", () => {
    expect(tokens).toHaveLength(POSITIONS);
    expect(base.own).toBe(false);
    expect(base.tokenizer).toBeNull();
    expect(archOf(base.config)).toBe(shape.arch);
    expect(base.config).toMatchObject({ vocabSize: shape.vocabSize, nHeads: 4, nKvHeads: 2 });
    expect(base.config.tiedOutput ?? false).toBe(shape.tiedOutput);
  });

  it("has peaked attention", () => expectPeakedAttention(base.config, base.weights, tokens));

  it("gives llama.cpp's log-probabilities, and each mutation misses them by far", () => {
    const err = maxDifference(logits(base.config, base.weights).logits, expected, shape.vocabSize);
    const missed = mutations.map((m) => {
      const config = m.config(base.config);
      return { name: m.name, err: maxDifference(logits(config, m.weights?.(base.weights, config) ?? base.weights).logits, expected, shape.vocabSize) };
    });
    console.log(
      `${shape.arch}${shape.tiedOutput ? " tied" : ""}${shape.llama3Rope ? " rope_freqs" : ""} F32: max |Δlogprob| ${err.toExponential(2)}; ` +
        missed.map((m) => `${m.name} ${m.err.toExponential(2)} (${(m.err / BOUND).toFixed(0)}× the bound)`).join(", "),
    );
    expect(err).toBeLessThan(BOUND);
    for (const m of missed) expect(m.err, m.name).toBeGreaterThan(MUTATION_MARGIN * BOUND);
  });

  it("with a LoRA adapter on every projection, gives llama.cpp's log-probabilities with that adapter", async () => {
    const lora = { rank: 4, alpha: 8, dropout: 0, targets: LORA_TARGETS };
    const ours = logits(base.config, base.weights, { config: lora, seed: 5 });
    // A fresh adapter has B = 0 (no change): give every B values that move the outputs.
    const prng = new Prng(6);
    for (const adapter of Object.values(ours.model.adapters())) adapter.b.set(randomNormal(prng, adapter.b.length, 1 / Math.sqrt(lora.rank)));
    const batch = { tokens: Int32Array.from(tokens), targets: new Int32Array(tokens.length).fill(-1), batchSize: 1, seqLen: tokens.length };
    const adapted = ours.model.logits(batch);

    const adapterPath = modelPath.replace(/\.gguf$/, "-lora.gguf");
    writeLoraGguf(adapterPath, { config: base.config, adapters: ours.model.adapters(), alpha: lora.alpha });
    const withLora = await (await reference.withLora({ filePath: adapterPath })).logprobs(tokens);
    const err = maxDifference(adapted, withLora, shape.vocabSize);
    const moved = maxDifference(adapted, expected, shape.vocabSize);
    console.log(`${shape.arch}${shape.tiedOutput ? " tied" : ""}${shape.llama3Rope ? " rope_freqs" : ""} F32 + LoRA: max |Δlogprob| ${err.toExponential(2)} (the adapter moves them by up to ${moved.toFixed(2)})`);
    expect(err).toBeLessThan(BOUND);
    expect(moved).toBeGreaterThan(MUTATION_MARGIN * BOUND);
  });
});

// A base that llama.cpp itself wrote in another weight type (llama_model_quantize, as llama-quantize
// makes the files people download; MOSTLY_F16 as convert_hf_to_gguf.py's F16 output), trained as a
// LoRA base: its matrices stay packed (frozen-base.ts) and every projection rounds its input as ggml's
// CPU matmul does for the weight's type (F16 → F16, BF16 → BF16, Q8_0 and Q4_0 → Q8_0 blocks,
// K-quants → Q8_K), so the trainer computes what llama.cpp serves. The same weights decoded to float32
// without that rounding (a full-weight model) miss by more.
//
// The issue asks 2e-3 (F16, BF16) and 5e-2 (quantized) of max |Δlogprob| over the vocabulary at 32
// positions. Every float operation of the forward pass now follows ggml's x86 CPU build to the bit where
// its order is reproduced: projections in tinyBLAS's lanes (F32, BF16 by VDPBF16PS pairs, the adapter's
// A and B) or its integer block sums (Q8_0, Q5_0 by packed.c int8_dot), attention as ggml computes it
// without flash attention (vec_dot scores, ggml_v_expf, a double sum, P·V in lanes), SwiGLU by
// ggml_v_silu, RoPE with ggml's angle recurrence, the C library's cosf/sinf and its fused rotation. A
// packed F32 base of each architecture then gives llama.cpp's log-probabilities exactly (0 at every
// position, with and without an adapter). What remains is where ggml's build for the CPU computes a
// weight type with a kernel not reproduced here; every rounding it applies to a projection's input
// (F16, Q8_0 blocks) then flips now and then, and a flip in a block costs 0.05–0.2 at the positions
// attending to it (docs/decisions.md, "Parity with llama.cpp on F16, BF16 and quantized bases"):
// - the AMX build (libggml-cpu-sapphirerapids) runs F16 through its AVX-512 tinygemm (float_lanes.c
//   amx_f16_order) and Q8_0 and Q4_0 through AMX int8 tiles (packed.c int8_dot_blocks), both reproduced.
//   Measured there: F16 0 / 0, BF16 0 / 0, Q8_0 0 / 0, Q5_0 1.4e-5 / 1.2e-5, Q4_0 1.2e-5 / 1.2e-5,
//   Q4_K_M 2.2e-5 / 2.4e-5 (the base, then with a rank-16 adapter): every bound is the issue's;
// - the other AVX-512 builds run F16 and Q8_0 through tinyBLAS (activations rounded to F16 or Q8_0
//   blocks), reproduced (float_lanes.c, packed.c int8_dot), and Q4_0 through the repacked q4_0_8x8 gemm,
//   which adds block by block as AMX does (int8_dot_blocks). Measured with ggml's zen4 build on this CPU
//   (the AMX build moved aside): F16 0 / 0, BF16 0 / 0, Q8_0 0 / 0, Q5_0 1.4e-5 / 1.2e-5, Q4_0 1.2e-5 /
//   1.2e-5, Q4_K_M 1.8e-5 / 2.0e-5.
// - K-quants on every AVX2 and AVX-512 build but the AMX one: Q4_K in the repacked q4_K_8x8 gemm, Q5_K
//   and Q6_K in their AVX2 dot products, each superblock's integer sums turned into floats in ggml's
//   order (kquant.c). Before it, a float gemm over decoded values gave 0.2–0.3 on llama and qwen3 files
//   (Q4_K_M, Q4_K_S, Q5_K_S) and passed on qwen2 by chance. Measured on a zen4 (ggml's zen4 build), every
//   architecture and stored type below, the base / with an adapter: 0 / 0, but qwen3 Q5_K_S 1.3e-5 /
//   1.3e-5 (its 128-wide attention output falls back to Q5_1, whose order was not reproduced then; on
//   a zen3 it missed by 0.12 with an adapter. Q4_1/Q5_1 now take their vec_dot's integer order: 0 / 0). On the AMX
//   build K-quants run through its tiles, not reproduced: the bounds there are the issue's, unmeasured.
// - AVX2 builds (ggml's haswell level, e.g. a zen3): F16 through tinyBLAS in 8 lanes (float_lanes.c
//   lanes8_dot_4x3), reproduced: measured on a zen3, F16 0 / 0 on every architecture (our gemm, before
//   it, gave 1.0–1.4e-2). The other types there: as on zen4.
// The bounds are the on every build.
// meanBound: the mean |Δ| of the next token's log-prob (what RL's served_abs_log_ratio measures); the
// issue's gate is 0.02 on Q8_0.
const STORED: { type: string; ftype: number; bound: number; loraBound: number; meanBound: number }[] = [
  { type: "F16", ftype: LLAMA_FTYPE.MOSTLY_F16, bound: 2e-3, loraBound: 2e-3, meanBound: 2e-3 },
  { type: "BF16", ftype: LLAMA_FTYPE.MOSTLY_BF16, bound: 2e-3, loraBound: 2e-3, meanBound: 2e-3 },
  { type: "Q8_0", ftype: LLAMA_FTYPE.MOSTLY_Q8_0, bound: 0.05, loraBound: 0.05, meanBound: 0.02 },
  { type: "Q5_0", ftype: LLAMA_FTYPE.MOSTLY_Q5_0, bound: 0.05, loraBound: 0.05, meanBound: 0.02 },
  { type: "Q4_0", ftype: LLAMA_FTYPE.MOSTLY_Q4_0, bound: 0.05, loraBound: 0.05, meanBound: 0.02 },
  { type: "Q4_K_M", ftype: LLAMA_FTYPE.MOSTLY_Q4_K_M, bound: 0.05, loraBound: 0.05, meanBound: 0.02 },
  { type: "Q4_K_S", ftype: LLAMA_FTYPE.MOSTLY_Q4_K_S, bound: 0.05, loraBound: 0.05, meanBound: 0.02 },
  { type: "Q5_K_S", ftype: LLAMA_FTYPE.MOSTLY_Q5_K_S, bound: 0.05, loraBound: 0.05, meanBound: 0.02 },
  { type: "Q6_K", ftype: LLAMA_FTYPE.MOSTLY_Q6_K, bound: 0.05, loraBound: 0.05, meanBound: 0.02 },
];
/** Widths of 256 so that K-quants apply (the quantizer falls back where a row is not whole blocks). */
const wide = (shape: RealLayoutShape): RealLayoutShape => ({ ...shape, dim: 256, ffnDim: 512, vocabSize: 4096 });
/** Every architecture in every stored type (about a second each). qwen3's attention output reads rows of
 *  4 heads × 32, not whole 256-blocks: the quantizer falls back there as it does on real files. */
const STORED_BASES = [
  { label: "qwen2", shape: wide(SMALL_SHAPES.qwen2) },
  { label: "llama (tied, rope_freqs)", shape: wide(SMALL_SHAPES.llamaTiedRopeFreqs) },
  { label: "qwen3", shape: wide(SMALL_SHAPES.qwen3) },
];

describe.each(STORED_BASES)("a $label base that llama.cpp wrote in other weight types", ({ label, shape: STORED_SHAPE }) => {
  const fileStem = label.replace(/\W+/g, "-");
  let f32Path: string;
  let tokens: number[];
  beforeAll(async () => {
    f32Path = path.join(dir, `${fileStem}-wide-f32.gguf`);
    writeRealLayoutModel(f32Path, STORED_SHAPE, { seed: 3 });
    const reference = await openLlamaCppReference(f32Path);
    tokens = reference.model.tokenize(TEXT, true).slice(0, POSITIONS);
    await reference.dispose();
  }, 120_000);

  it("has peaked attention", () => {
    const { config, weights } = readTrainableGguf(f32Path);
    expectPeakedAttention(config, weights, tokens);
  });

  describe.each(STORED)("as $type", ({ type, ftype, bound, loraBound, meanBound }) => {
    it("gives llama.cpp's log-probabilities from its packed weights, with and without a LoRA adapter", async () => {
      const storedPath = path.join(dir, `${fileStem}-wide-${type}.gguf`);
      quantizeGgufWithLlama(f32Path, storedPath, ftype);
      const base = readPackedBase(storedPath);
      expect(base.own).toBe(false);
      const reference = await openLlamaCppReference(storedPath);
      try {
        const expected = await reference.logprobs(tokens);
        const batch = { tokens: Int32Array.from(tokens), targets: new Int32Array(tokens.length).fill(-1), batchSize: 1, seqLen: tokens.length };
        const lora = { config: { rank: 16, alpha: 32, dropout: 0, targets: LORA_TARGETS }, seed: 5 }; // the defaults; B = 0: the base itself
        const packed = new LlamaModel(base.config, { weights: base.weights, lora });
        expect((packed.base as FrozenBase).bytes).toBeLessThan(fs.statSync(storedPath).size);
        const err = maxDifference(packed.logits(batch), expected, STORED_SHAPE.vocabSize);
        const unrounded = maxDifference(new LlamaModel(base.config, { weights: base.weights }).logits(batch), expected, STORED_SHAPE.vocabSize);
        // What an RL job reports at its first step (served_abs_log_ratio): the mean over sampled tokens of
        // |served − trained| log-prob, here each position's next token.
        const targets = Int32Array.from(tokens, (_, t) => (t + 1 < tokens.length ? tokens[t + 1] : -1));
        const trained = packed.forward({ ...batch, targets }).logprobs;
        const meanGap = tokens.slice(1).reduce((sum, next, t) => sum + Math.abs(trained[t] - expected[t][next]), 0) / (tokens.length - 1);

        // The adapter on every projection, given B values that move the outputs, applied by llama.cpp.
        const prng = new Prng(6);
        for (const adapter of Object.values(packed.adapters())) adapter.b.set(randomNormal(prng, adapter.b.length, 1 / Math.sqrt(lora.config.rank)));
        const adapted = packed.logits(batch);
        const adapterPath = storedPath.replace(/\.gguf$/, "-lora.gguf");
        writeLoraGguf(adapterPath, { config: base.config, adapters: packed.adapters(), alpha: lora.config.alpha });
        const withLora = await (await reference.withLora({ filePath: adapterPath })).logprobs(tokens);
        const loraErr = maxDifference(adapted, withLora, STORED_SHAPE.vocabSize);
        const moved = maxDifference(adapted, expected, STORED_SHAPE.vocabSize);
        console.log(
          `${label} ${type}: max |Δlogprob| ${err.toExponential(2)} packed (activations rounded as ggml does), ${unrounded.toExponential(2)} decoded to float32 without; ` +
            `mean |served − trained| of the next tokens ${meanGap.toExponential(2)}; with a LoRA adapter ${loraErr.toExponential(2)} (it moves them by up to ${moved.toFixed(2)})`,
        );
        expect(err).toBeLessThan(bound);
        expect(meanGap).toBeLessThan(meanBound);
        expect(unrounded).toBeGreaterThan(err);
        expect(loraErr).toBeLessThan(loraBound);
        expect(moved).toBeGreaterThan(MUTATION_MARGIN * loraBound);
      } finally {
        await reference.dispose();
      }
    }, 120_000);
  });
});
