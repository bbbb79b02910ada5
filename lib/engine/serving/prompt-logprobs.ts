// Log-probabilities of a prompt's own tokens: the prompt evaluated once with logits at every
// position, each token scored against the distribution predicted before it (the first has none).

import type { ControlledEvaluateInputItem, Token } from "node-llama-cpp";
import { eraseTokens } from "./erase-gate";
import { logSoftmax, mostLikely, type TokenLogprob } from "./generate";
import type { AdapterRef, ModelRegistry } from "./model-registry";

export interface PromptTokenLogprob {
  token: number;
  logprob: number;
  /** 1 = the most likely token at that position. */
  rank: number;
  top: TokenLogprob[];
}

export async function promptLogprobs(
  registry: ModelRegistry,
  request: { model: string; adapter?: AdapterRef; promptTokens: readonly number[]; topLogprobs: number },
): Promise<(PromptTokenLogprob | null)[]> {
  const prompt = request.promptTokens;
  const lease = await registry.lease(request.model, request.adapter);
  try {
    const { sequence } = lease;
    // Every position must be evaluated, so nothing cached can be reused.
    if (sequence.nextTokenIndex > 0) await eraseTokens(sequence, [{ start: 0, end: sequence.nextTokenIndex }]);
    const input = (prompt as Token[]).map((t, i): ControlledEvaluateInputItem => (i < prompt.length - 1 ? [t, { generateNext: { logits: true } }] : t));
    const results = await sequence.controlledEvaluate(input);
    const out: (PromptTokenLogprob | null)[] = [null];
    for (let i = 1; i < prompt.length; i++) {
      const byToken = results[i - 1]?.next.logits;
      if (!byToken) throw new Error("promptLogprobs: llama.cpp returned no logits");
      const logits = new Float32Array(byToken.size);
      for (const [token, logit] of byToken) logits[token] = logit;
      const logprobs = logSoftmax(logits);
      const token = prompt[i];
      let rank = 1;
      for (let t = 0; t < logprobs.length; t++) if (logprobs[t] > logprobs[token]) rank++;
      out.push({ token, logprob: logprobs[token], rank, top: request.topLogprobs > 0 ? mostLikely(logprobs, request.topLogprobs) : [] });
    }
    return out;
  } finally {
    lease.release();
  }
}
