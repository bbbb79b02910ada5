// The base probe's forward (docs/workers.md "Probe"): log π(ids[i] | ids[<i]) for every i ≥ 1 of a
// token sequence under a GGUF's weights, by Anneal's own trainer forward. No server-only imports:
// the server computes its side with it, and the remote Node worker reports its own with it.
import { readPackedBase } from "@/lib/engine/gguf/llama-gguf";
import { LlamaModel } from "@/lib/engine/model/llama-model";

/** A list as long as `ids` whose entry 0 is 0 (nothing predicts the first token). */
export function probeLogprobs(ggufPath: string, ids: readonly number[]): number[] {
  const { config, weights } = readPackedBase(ggufPath);
  // A LoRA-mode model keeps the file's matrices packed (a 0.5B Q8_0 stays ~0.5 GB, not 2 GB of
  // float32); its fresh adapter has B = 0, so it computes the base's own logprobs.
  const model = new LlamaModel(config, { weights, lora: { config: { rank: 1, alpha: 1, dropout: 0, targets: ["attn_q"] }, seed: 1 } });
  const n = ids.length;
  const targets = new Int32Array(n).fill(-1);
  for (let t = 0; t + 1 < n; t++) targets[t] = ids[t + 1];
  const { logprobs } = model.forward({ tokens: Int32Array.from(ids), targets, batchSize: 1, seqLen: n });
  return [0, ...Array.from(logprobs.subarray(0, n - 1))];
}

/** The mean |Δ| of two probes' logprobs over entries 1.. (entry 0 is 0 in both). */
export function meanAbsDelta(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 1; i < a.length; i++) sum += Math.abs(a[i] - b[i]);
  return a.length > 1 ? sum / (a.length - 1) : 0;
}
