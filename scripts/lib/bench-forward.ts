// Our forward pass against llama.cpp's, in one process, on the same model and the same prompt:
// tokens/s of LlamaModel.forward over one N-token sequence vs. llama.cpp evaluating that prompt from
// an empty KV cache (a leased serving sequence, one thread, like ours). Runs alternate so that both
// see the same machine load. Ours also computes every position's logits and log-probs (training
// needs them); llama.cpp computes only the last position's.
import type { Kernels } from "../../lib/engine/kernels";
import { LlamaModel } from "../../lib/engine/model/llama-model";
import type { ModelRegistry } from "../../lib/engine/serving/model-registry";
import { nextTokenLogits } from "../../lib/engine/serving/next-token-logits";
import type { BenchModel } from "./bench-model";

export interface ForwardResult {
  promptTokens: number;
  /** Timed runs per engine (after one warm-up run each). */
  runs: number;
  oursTokensPerSecond: number;
  llamaCppTokensPerSecond: number;
  /** ours / llama.cpp */
  ratio: number;
  /** Largest |Δ| between the two engines' logits of the token after the prompt. */
  maxLogitDifference: number;
}

export async function benchForward(registry: ModelRegistry, model: BenchModel, kernels: Kernels, prompt: readonly number[], runs: number): Promise<ForwardResult> {
  const { config, weights } = model.contents;
  const ours = new LlamaModel(config, { weights, kernels });
  const N = prompt.length;
  // No targets: only the logits of the last position are compared (and the head computes only those).
  const batch = { tokens: Int32Array.from(prompt), targets: new Int32Array(N).fill(-1), batchSize: 1, seqLen: N };
  const lease = await registry.lease(model.path);
  try {
    const oursOnce = () => ours.logits(batch, [N - 1]);
    const theirsOnce = async () => {
      await lease.sequence.clearHistory();
      const t0 = performance.now();
      const logits = await nextTokenLogits(lease.sequence, prompt);
      return { logits, ms: performance.now() - t0 };
    };
    const oursLogits = oursOnce();
    const theirs = await theirsOnce();
    const maxLogitDifference = oursLogits.reduce((max, l, t) => Math.max(max, Math.abs(l - theirs.logits[t])), 0);

    let oursMs = 0;
    let theirsMs = 0;
    for (let run = 0; run < runs; run++) {
      const t0 = performance.now();
      oursOnce();
      oursMs += performance.now() - t0;
      theirsMs += (await theirsOnce()).ms;
    }
    const oursTokensPerSecond = (N * runs) / (oursMs / 1000);
    const llamaCppTokensPerSecond = (N * runs) / (theirsMs / 1000);
    return { promptTokens: N, runs, oursTokensPerSecond, llamaCppTokensPerSecond, ratio: oursTokensPerSecond / llamaCppTokensPerSecond, maxLogitDifference };
  } finally {
    lease.release();
  }
}
