// Serving with a LoRA adapter, through the registry and generate loop that serve requests: tokens/s
// with the adapter against the bare base at each concurrency, and the first answer of a new
// checkpoint (the time from its adapter file existing to its first completed answer).
import fs from "node:fs";
import path from "node:path";
import { generate } from "../../lib/engine/serving/generate";
import type { ModelRegistry } from "../../lib/engine/serving/model-registry";
import { benchInference, type ServedModel } from "./bench-inference";
import { percentile } from "./latency-stats";
import { randomTokens } from "./bench-tokens";

export interface AdapterServingShape {
  concurrency: number;
  promptTokens: number;
  maxTokens: number;
  /** Base and adapter runs, in alternating pairs (a burst of other load then hits both). */
  trials: number;
}

export interface AdapterServingResult extends Omit<AdapterServingShape, "trials"> {
  trials: number;
  /** Medians over the trials. */
  baseTokensPerSecond: number;
  adapterTokensPerSecond: number;
  /** Median over the pairs of adapter ÷ base. */
  ratio: number;
}

export async function benchAdapterServing(registry: ModelRegistry, base: ServedModel, adapterPath: string, shape: AdapterServingShape): Promise<AdapterServingResult> {
  const withAdapter: ServedModel = { ...base, adapter: { path: adapterPath } };
  const { trials, ...inference } = shape;
  const pairs: { base: number; adapter: number }[] = [];
  for (let t = 0; t < trials; t++) {
    const order = t % 2 === 0 ? [base, withAdapter] : [withAdapter, base];
    const [first, second] = [await benchInference(registry, order[0], inference), await benchInference(registry, order[1], inference)];
    const [b, a] = t % 2 === 0 ? [first, second] : [second, first];
    pairs.push({ base: b.tokensPerSecond, adapter: a.tokensPerSecond });
  }
  const median = (values: number[]) => percentile(values, 50);
  return {
    ...shape,
    baseTokensPerSecond: median(pairs.map((p) => p.base)),
    adapterTokensPerSecond: median(pairs.map((p) => p.adapter)),
    ratio: median(pairs.map((p) => p.adapter / p.base)),
  };
}

export interface FirstAnswer {
  promptTokens: number;
  maxTokens: number;
  /** From the adapter file existing to the answer's last token. */
  ms: number;
  /** Of which to its first token. */
  firstTokenMs: number;
  /** The same request again, the adapter now loaded: what is left is generation itself. */
  warmMs: number;
}

/** `adapterPath` written again as a new checkpoint's file in `dir`, then asked one question, with the
 *  base already serving (as on a server whose users chat with the base: loaded, with a context that
 *  answered another prompt); then the same question once more. */
export async function firstAnswer(registry: ModelRegistry, base: ServedModel, adapterPath: string, dir: string, shape: { promptTokens: number; maxTokens: number }): Promise<FirstAnswer> {
  const promptTokens = randomTokens(shape.promptTokens, base.vocabSize, 11);
  const answer = async (adapter?: string) => {
    const t0 = performance.now();
    let firstTokenMs = NaN;
    const stream = generate(registry, { model: base.path, adapter: adapter ? { path: adapter } : undefined, promptTokens, maxTokens: shape.maxTokens, ignoreEos: true, sampling: { temperature: 0 } });
    for await (const _ of stream) if (Number.isNaN(firstTokenMs)) firstTokenMs = performance.now() - t0;
    return { ms: performance.now() - t0, firstTokenMs };
  };
  await answer(); // the base serving
  const checkpoint = path.join(dir, `checkpoint-${Date.now()}.gguf`);
  fs.writeFileSync(checkpoint, fs.readFileSync(adapterPath));
  const first = await answer(checkpoint);
  const warm = await answer(checkpoint);
  return { ...shape, ms: first.ms, firstTokenMs: first.firstTokenMs, warmMs: warm.ms };
}
