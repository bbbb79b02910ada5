// Greedy decoding with the training model and a KV cache (model/kv-decoder.ts): the prompts are run
// once (prefill), then each step runs only the active sequences' newest tokens. Sequences end on their
// own (a stop id, the context length) and drop out of later steps.
import { KvDecoder } from "../model/kv-decoder";
import type { LlamaModel } from "../model/llama-model";

export interface GreedyOptions {
  maxNewTokens: number;
  /** Generation of a sequence ends after this token, or any of these (not included in the output). */
  stopId: number | readonly number[];
  /** Date.now() past which generation stops (GenerationDeadlinePassed), looked at before each token. */
  deadline?: number;
}

/** Greedy generation ran past its deadline: a caller with a time budget stops there. */
export class GenerationDeadlinePassed extends Error {
  constructor() {
    super("Greedy generation ran past its deadline.");
  }
}

export interface Generated {
  tokens: number[];
  /** True when the sequence ended with stopId, false when it hit a length limit. */
  stopped: boolean;
}

export function greedyGenerate(model: LlamaModel, prompts: readonly number[][], o: GreedyOptions): Generated[] {
  const { contextLength, vocabSize: V } = model.config;
  if (prompts.some((p) => p.length === 0)) throw new Error("greedy generation needs a non-empty prompt");
  const stops = new Set(typeof o.stopId === "number" ? [o.stopId] : o.stopId);
  const lengths = prompts.map((p) => p.length);
  const out: Generated[] = prompts.map(() => ({ tokens: [], stopped: false }));
  const active = new Set(prompts.keys());
  const capacity = Math.min(contextLength, Math.max(0, ...lengths) + o.maxNewTokens);
  const decoder = new KvDecoder(model, prompts.length, capacity);
  for (let n = 0; n < o.maxNewTokens && active.size > 0; n++) {
    if (o.deadline !== undefined && Date.now() > o.deadline) throw new GenerationDeadlinePassed();
    for (const i of active) if (lengths[i] >= contextLength) active.delete(i);
    const rows = [...active];
    if (rows.length === 0) break;
    // The whole prompt first, then the token chosen last step.
    const logits = decoder.append(rows, rows.map((i) => (n === 0 ? prompts[i] : out[i].tokens.slice(-1))));
    rows.forEach((i, r) => {
      const at = r * V;
      let best = 0;
      for (let v = 1; v < V; v++) if (logits[at + v] > logits[at + best]) best = v;
      if (stops.has(best)) {
        out[i].stopped = true;
        active.delete(i);
      } else {
        lengths[i]++;
        out[i].tokens.push(best);
      }
    });
  }
  return out;
}
