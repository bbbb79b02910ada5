// Greedy decoding with the training model (no KV cache: each new token re-runs the whole batch,
// which is cheap at tiny-chat's size). Prompts of different lengths share one right-padded batch;
// causal attention keeps the padding from reaching any real position.

import type { LlamaModel } from "../model/llama-model";

export interface GreedyOptions {
  maxNewTokens: number;
  /** Generation of a sequence ends after this token, or any of these (not included in the output). */
  stopId: number | readonly number[];
  padId: number;
}

export interface Generated {
  tokens: number[];
  /** True when the sequence ended with stopId, false when it hit a length limit. */
  stopped: boolean;
}

export function greedyGenerate(model: LlamaModel, prompts: readonly number[][], o: GreedyOptions): Generated[] {
  const { contextLength, vocabSize: V } = model.config;
  const stops = new Set(typeof o.stopId === "number" ? [o.stopId] : o.stopId);
  const seqs = prompts.map((p) => [...p]);
  const out: Generated[] = prompts.map(() => ({ tokens: [], stopped: false }));
  const active = new Set(seqs.keys());
  for (let n = 0; n < o.maxNewTokens && active.size > 0; n++) {
    for (const i of active) if (seqs[i].length >= contextLength) active.delete(i);
    const rows = [...active];
    if (rows.length === 0) break;
    const T = Math.max(...rows.map((i) => seqs[i].length));
    const tokens = new Int32Array(rows.length * T).fill(o.padId);
    rows.forEach((i, r) => tokens.set(seqs[i], r * T));
    const last = rows.map((i, r) => r * T + seqs[i].length - 1);
    const logits = model.logits({ tokens, targets: new Int32Array(rows.length * T).fill(-1), batchSize: rows.length, seqLen: T }, last);
    rows.forEach((i, r) => {
      const at = r * V;
      let best = 0;
      for (let v = 1; v < V; v++) if (logits[at + v] > logits[at + best]) best = v;
      if (stops.has(best)) {
        out[i].stopped = true;
        active.delete(i);
      } else {
        seqs[i].push(best);
        out[i].tokens.push(best);
      }
    });
  }
  return out;
}
