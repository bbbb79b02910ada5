import { describe, expect, it } from "vitest";
import { activationBytesPerToken, recomputesForRows, STEP_ACTIVATION_BYTES } from "@/lib/engine/model/activations";
import type { LlamaConfig } from "@/lib/engine/model/config";
import { DEFAULT_LORA_CONFIG } from "@/lib/engine/model/lora";
import { RL_MAX_TOKENS_PER_STEP, rlTokensPerStep } from "./step-tokens";

// Qwen2.5-0.5B's config.json, and tiny-chat-2's (models/tiny-chat-2.gguf).
const QWEN25_05B: LlamaConfig = {
  arch: "qwen2", ropeStyle: "neox", qkvBias: true, tiedOutput: true, vocabSize: 151_936, dim: 896, nLayers: 24, nHeads: 14, nKvHeads: 2,
  ffnDim: 4864, contextLength: 32_768, ropeBase: 1e6, normEps: 1e-6,
};
const TINY_CHAT_2: LlamaConfig = { vocabSize: 512, dim: 128, nLayers: 4, nHeads: 4, nKvHeads: 4, ffnDim: 384, contextLength: 512, ropeBase: 10000, normEps: 1e-5 };

describe("rlTokensPerStep", () => {
  it("keeps a 0.5B base's step within the activation bound, and a tiny base at the cap", () => {
    const lora = { ...DEFAULT_LORA_CONFIG, dropout: 0.1 };
    const tokens = rlTokensPerStep(QWEN25_05B, lora);
    expect(tokens * activationBytesPerToken(QWEN25_05B, lora)).toBeLessThanOrEqual(STEP_ACTIVATION_BYTES);
    expect(tokens).toBeGreaterThan(4096); // a 4,096-token history still trains
    expect(tokens).toBeLessThan(RL_MAX_TOKENS_PER_STEP);
    expect(rlTokensPerStep(TINY_CHAT_2, null)).toBe(RL_MAX_TOKENS_PER_STEP);
  });

  it("counts every block's activations in full mode, one block's with recompute", () => {
    const [kept, recomputed] = [activationBytesPerToken(QWEN25_05B, null, false), activationBytesPerToken(QWEN25_05B, null, true)];
    expect(kept / recomputed).toBeGreaterThan(5);
  });
});

describe("recomputesForRows", () => {
  it("keeps a LoRA step's activations while they fit the bound, recomputes beyond, never in full mode", () => {
    expect(recomputesForRows(QWEN25_05B, DEFAULT_LORA_CONFIG, 512)).toBe(false); // ~1.0 GB kept
    expect(recomputesForRows(QWEN25_05B, DEFAULT_LORA_CONFIG, 4096)).toBe(true); // ~8.3 GB kept
    expect(recomputesForRows(QWEN25_05B, null, 4096)).toBe(false);
    expect(recomputesForRows(TINY_CHAT_2, DEFAULT_LORA_CONFIG, RL_MAX_TOKENS_PER_STEP)).toBe(false);
  });
});
