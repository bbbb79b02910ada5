// llama.cpp's prompt processing on a GGUF file, as llama-bench's pp test measures it: one sequence of
// `seqLen` random tokens evaluated from an empty KV cache in batches of 512, on every core. The
// yardstick bench:lora holds the trainer's tokens/s against (a training token costs about two
// forwards: forward, and the backward through the frozen weights).
import os from "node:os";
import type { Token } from "node-llama-cpp";
import { getLlamaRuntime } from "../../lib/engine/serving/llama-runtime";
import { randomTokens } from "./bench-tokens";
import { percentile } from "./latency-stats";

export interface PromptProcessingResult {
  seqLen: number;
  threads: number;
  /** Timed runs (after one warm-up run); tokens/s is their median. */
  runs: number;
  tokensPerSecond: number;
}

const BATCH = 512;

export async function benchPromptProcessing(modelPath: string, vocabSize: number, seqLen: number, runs: number): Promise<PromptProcessingResult> {
  const threads = os.availableParallelism();
  const model = await (await getLlamaRuntime()).loadModel({ modelPath });
  try {
    const context = await model.createContext({ contextSize: seqLen, batchSize: BATCH, threads: { ideal: threads, min: threads } });
    const sequence = context.getSequence();
    const tokens = randomTokens(seqLen, vocabSize, 5) as Token[];
    const rates: number[] = [];
    for (let run = 0; run <= runs; run++) {
      await sequence.clearHistory();
      const t0 = performance.now();
      await sequence.evaluateWithoutGeneratingNewTokens(tokens);
      if (run > 0) rates.push(seqLen / ((performance.now() - t0) / 1000));
    }
    await context.dispose();
    return { seqLen, threads, runs, tokensPerSecond: percentile(rates, 50) };
  } finally {
    await model.dispose();
  }
}
