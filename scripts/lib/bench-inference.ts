// Generation throughput through serving, as a request runs it: ModelRegistry lease + generate with
// Anneal's sampler on llama.cpp's logits. `concurrency` greedy requests of exactly `maxTokens` tokens
// (end-of-generation ignored) run at once on one context, whose sequences llama.cpp decodes in one
// batch. Throughput is generated tokens over wall time, prompt evaluation included; a warm-up round
// of the same shape with other prompts comes first (the first rounds run several times slower).
import { generateText } from "../../lib/engine/serving/generate";
import type { ModelRegistry } from "../../lib/engine/serving/model-registry";
import type { BenchModel } from "./bench-model";
import { randomTokens } from "./bench-tokens";

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

export async function benchInference(registry: ModelRegistry, model: BenchModel, shape: InferenceShape): Promise<InferenceResult> {
  const round = async (seed: number) => {
    const requests = Array.from({ length: shape.concurrency }, (_, i) =>
      generateText(registry, {
        model: model.path,
        promptTokens: randomTokens(shape.promptTokens, model.contents.config.vocabSize, seed * 1000 + i),
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
