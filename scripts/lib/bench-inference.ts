// Generation throughput through serving, as a request runs it: ModelRegistry lease + generate with
// Anneal's sampler on llama.cpp's logits, with a LoRA adapter or without. `concurrency` greedy
// requests of exactly `maxTokens` tokens (end-of-generation ignored) run at once on one context,
// whose sequences llama.cpp decodes in one batch. Throughput is generated tokens over wall time,
// prompt evaluation included; a warm-up round of the same shape with other prompts comes first
// (the first rounds run several times slower).
import { generateText } from "../../lib/engine/serving/generate";
import type { AdapterRef, ModelRegistry } from "../../lib/engine/serving/model-registry";
import { randomTokens } from "./bench-tokens";

/** A GGUF file as a request names it, with a LoRA adapter or without. */
export interface ServedModel {
  path: string;
  vocabSize: number;
  adapter?: AdapterRef;
}

export interface InferenceShape {
  concurrency: number;
  promptTokens: number;
  maxTokens: number;
}

export interface InferenceResult extends InferenceShape {
  seconds: number;
  /** All sequences together. */
  tokensPerSecond: number;
  perSequenceTokensPerSecond: number;
}

export async function benchInference(registry: ModelRegistry, model: ServedModel, shape: InferenceShape): Promise<InferenceResult> {
  const round = async (seed: number) => {
    const requests = Array.from({ length: shape.concurrency }, (_, i) =>
      generateText(registry, {
        model: model.path,
        adapter: model.adapter,
        promptTokens: randomTokens(shape.promptTokens, model.vocabSize, seed * 1000 + i),
        maxTokens: shape.maxTokens,
        ignoreEos: true,
        sampling: { temperature: 0 },
      }),
    );
    const results = await Promise.all(requests);
    return results.reduce((n, r) => n + r.tokens.length, 0);
  };
  await round(1);
  const t0 = performance.now();
  const generated = await round(2);
  const seconds = (performance.now() - t0) / 1000;
  return { ...shape, seconds, tokensPerSecond: generated / seconds, perSequenceTokensPerSecond: generated / shape.concurrency / seconds };
}
