// The shapes of the GGUF chat models people download (llama, qwen2, qwen3 architectures), for the
// random-weight files of real-layout-models.ts: small ones for tests, exact ones for benchmarks.

import type { RealTokenizerName } from "./real-tokenizers";

export type RealArch = "llama" | "qwen2" | "qwen3";

/** Llama 3.1+'s RoPE scaling (config.json rope_scaling, rope_type "llama3"): the converter writes no
 *  metadata for it, only the per-frequency factors as the tensor rope_freqs.weight. */
export interface Llama3RopeScaling {
  factor: number;
  lowFreqFactor: number;
  highFreqFactor: number;
  originalContextLength: number;
}

export interface RealLayoutShape {
  arch: RealArch;
  dim: number;
  nLayers: number;
  nHeads: number;
  /** < nHeads for grouped-query attention. */
  nKvHeads: number;
  /** Width of each head; dim / nHeads unless given. Written as attention.key_length/value_length when
   *  given (as the converter does when config.json has head_dim) and always for qwen3. */
  headDim?: number;
  ffnDim: number;
  /** The model's vocabulary: the tokenizer's, padded like Qwen's 151,936 (or cut, see tokenizerGguf). */
  vocabSize: number;
  contextLength: number;
  ropeBase: number;
  normEps: number;
  /** No output.weight: llama.cpp reuses token_embd.weight. */
  tiedOutput: boolean;
  /** llama only: writes rope_freqs.weight. */
  llama3Rope?: Llama3RopeScaling;
  /** Defaults to the architecture's: llama → llama3, qwen2 → qwen2.5, qwen3 → qwen3. */
  tokenizer?: RealTokenizerName;
}

export const DEFAULT_TOKENIZER: Record<RealArch, RealTokenizerName> = { llama: "llama3", qwen2: "qwen2.5", qwen3: "qwen3" };

export const LLAMA3_VOCAB = 128_256;
/** Qwen2.5's and Qwen3's config.json vocab_size (0.5B–14B): the tokenizer's 151,665/151,669 tokens, padded. */
export const QWEN_VOCAB = 151_936;

export function headDimOf(shape: RealLayoutShape): number {
  const h = shape.headDim ?? shape.dim / shape.nHeads;
  if (!Number.isInteger(h) || h % 2 !== 0) throw new Error(`head width ${h} must be an even integer`);
  if (shape.nHeads % shape.nKvHeads !== 0) throw new Error(`${shape.nHeads} heads cannot share ${shape.nKvHeads} key/value heads`);
  return h;
}

/** Llama 3.1's and 3.2's rope_scaling. */
export const LLAMA31_ROPE: Llama3RopeScaling = { factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalContextLength: 8192 };
export const LLAMA32_ROPE: Llama3RopeScaling = { ...LLAMA31_ROPE, factor: 32 };

// Exact shapes of published models (their config.json). As F32 files (written here in 5, 21, 28 and
// 55 s): SmolLM2-135M 0.54 GB, Qwen2.5-0.5B 1.98 GB, Qwen3-0.6B 2.39 GB, Llama-3.2-1B 4.95 GB.

/** SmolLM2's own tokenizer (49,152 tokens) is not on npm: its vocabulary is Llama 3's cut to that size. */
export const SMOLLM2_135M: RealLayoutShape = {
  arch: "llama", dim: 576, nLayers: 30, nHeads: 9, nKvHeads: 3, ffnDim: 1536,
  vocabSize: 49_152, contextLength: 8192, ropeBase: 100_000, normEps: 1e-5, tiedOutput: true,
};

export const QWEN25_05B: RealLayoutShape = {
  arch: "qwen2", dim: 896, nLayers: 24, nHeads: 14, nKvHeads: 2, ffnDim: 4864,
  vocabSize: QWEN_VOCAB, contextLength: 32_768, ropeBase: 1_000_000, normEps: 1e-6, tiedOutput: true,
};

export const QWEN3_06B: RealLayoutShape = {
  arch: "qwen3", dim: 1024, nLayers: 28, nHeads: 16, nKvHeads: 8, headDim: 128, ffnDim: 3072,
  vocabSize: QWEN_VOCAB, contextLength: 40_960, ropeBase: 1_000_000, normEps: 1e-6, tiedOutput: true,
};

export const LLAMA32_1B: RealLayoutShape = {
  arch: "llama", dim: 2048, nLayers: 16, nHeads: 32, nKvHeads: 8, headDim: 64, ffnDim: 8192,
  vocabSize: LLAMA3_VOCAB, contextLength: 131_072, ropeBase: 500_000, normEps: 1e-5, tiedOutput: true, llama3Rope: LLAMA32_ROPE,
};

export const REAL_PRESETS = { "smollm2-135m": SMOLLM2_135M, "qwen2.5-0.5b": QWEN25_05B, "qwen3-0.6b": QWEN3_06B, "llama3.2-1b": LLAMA32_1B };

// Small shapes for tests, one per variant a trainer must handle, with the real vocabularies (the
// embedding is most of the file: 151,936 × 64 F32 ≈ 39 MB). For K-quants, widen them to multiples of
// 256: `{ ...SMALL_SHAPES.qwen2, dim: 256, ffnDim: 512 }`.
const SMALL = { dim: 64, nLayers: 2, nHeads: 4, nKvHeads: 2, ffnDim: 128, normEps: 1e-5 };

export const SMALL_SHAPES = {
  /** Llama 3.0-style: untied output, plain RoPE. */
  llamaUntied: { ...SMALL, arch: "llama", vocabSize: LLAMA3_VOCAB, contextLength: 8192, ropeBase: 500_000, tiedOutput: false },
  /** Llama 3.2-style: tied output, rope_freqs.weight (head width 16 at θ 5e5 has frequencies in all three bands). */
  llamaTiedRopeFreqs: {
    ...SMALL, arch: "llama", vocabSize: LLAMA3_VOCAB, contextLength: 131_072, ropeBase: 500_000, tiedOutput: true, llama3Rope: LLAMA32_ROPE,
  },
  /** Qwen2.5-style: q/k/v biases, NEOX RoPE, tied. */
  qwen2: { ...SMALL, arch: "qwen2", vocabSize: QWEN_VOCAB, contextLength: 32_768, ropeBase: 1_000_000, normEps: 1e-6, tiedOutput: true },
  /** Qwen3-style: q/k norms, heads of 32 where dim / heads is 16. */
  qwen3: { ...SMALL, arch: "qwen3", headDim: 32, vocabSize: QWEN_VOCAB, contextLength: 40_960, ropeBase: 1_000_000, normEps: 1e-6, tiedOutput: true },
} satisfies Record<string, RealLayoutShape>;
