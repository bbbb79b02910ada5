import { describe, expect, it } from "vitest";
import type { LlamaConfig } from "@/lib/engine/model/config";
import { adapterSize } from "./adapter-size";

// Qwen2.5-0.5B's config.json: 896 wide, 24 layers, 14 heads of 64, 2 key/value heads, SwiGLU 4,864.
const QWEN25_05B: LlamaConfig = {
  arch: "qwen2", vocabSize: 151_936, dim: 896, nLayers: 24, nHeads: 14, nKvHeads: 2, ffnDim: 4864, contextLength: 32_768, ropeBase: 1e6, normEps: 1e-6, qkvBias: true, tiedOutput: true,
};
const ALL = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"] as const;

describe("adapterSize", () => {
  it("is rank·(in + out) per adapted matrix per layer, from the base's widths", () => {
    const size = adapterSize(QWEN25_05B, { rank: 16, target_modules: ALL });
    expect(size.modules).toEqual([
      { module: "q_proj", in: 896, out: 896, parameters: 16 * (896 + 896) },
      { module: "k_proj", in: 896, out: 128, parameters: 16 * (896 + 128) },
      { module: "v_proj", in: 896, out: 128, parameters: 16 * (896 + 128) },
      { module: "o_proj", in: 896, out: 896, parameters: 16 * (896 + 896) },
      { module: "gate_proj", in: 896, out: 4864, parameters: 16 * (896 + 4864) },
      { module: "up_proj", in: 896, out: 4864, parameters: 16 * (896 + 4864) },
      { module: "down_proj", in: 4864, out: 896, parameters: 16 * (4864 + 896) },
    ]);
    // PEFT reports 8,798,208 trainable parameters for this config (r=16, every projection).
    expect(size.parameters).toBe(8_798_208);
    expect(size.bytes).toBe(8_798_208 * 4);
    expect(size.layers).toBe(24);
  });

  it("scales with the rank and counts only the chosen modules", () => {
    const size = adapterSize(QWEN25_05B, { rank: 8, target_modules: ["q_proj", "v_proj"] });
    expect(size.parameters).toBe(24 * 8 * (896 + 896 + 896 + 128));
  });

  it("reads widened heads (qwen3: 16 heads of 128 on a 1,024-wide stream)", () => {
    const qwen3: LlamaConfig = { ...QWEN25_05B, arch: "qwen3", dim: 1024, nHeads: 16, nKvHeads: 8, headDim: 128, ffnDim: 3072, nLayers: 28 };
    const [q, , , o] = adapterSize(qwen3, { rank: 16, target_modules: ALL }).modules;
    expect([q.in, q.out, o.in, o.out]).toEqual([1024, 2048, 2048, 1024]);
  });
});
