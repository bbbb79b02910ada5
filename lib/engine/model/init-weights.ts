// Deterministic initialisation (GPT-2's scheme, as llm.c uses): normal(0, 0.02) for embeddings and
// projections, with the two projections that write into the residual stream (attn_output,
// ffn_down) scaled by 1/√(2·nLayers) so the stream's variance does not grow with depth; norm
// gains start at 1, biases at 0.
import { Prng } from "../prng";
import type { LlamaConfig } from "./config";
import type { ParameterSet } from "./parameters";

const STD = 0.02;

export function initWeights(params: ParameterSet, config: LlamaConfig, seed: number): void {
  const prng = new Prng(seed);
  const residualStd = STD / Math.sqrt(2 * config.nLayers);
  for (const slot of params.slots) {
    const w = params.value(slot.name);
    if (slot.shape.length === 1) {
      w.fill(slot.name.endsWith(".bias") ? 0 : 1);
      continue;
    }
    const std = /attn_output|ffn_down/.test(slot.name) ? residualStd : STD;
    for (let i = 0; i < w.length; i++) w[i] = prng.normal() * std;
  }
}
