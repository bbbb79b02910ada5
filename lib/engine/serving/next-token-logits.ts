// Feeds tokens into a context sequence (which keeps its KV cache between calls) and returns the raw
// logits of the token that follows them, as a dense array indexed by token id.

import type { ControlledEvaluateInputItem, LlamaContextSequence, Token } from "node-llama-cpp";

export async function nextTokenLogits(sequence: LlamaContextSequence, tokens: readonly number[]): Promise<Float32Array> {
  if (tokens.length === 0) throw new Error("nextTokenLogits: no tokens to evaluate");
  const last = tokens.length - 1;
  const input = (tokens as Token[]).map((t, i): ControlledEvaluateInputItem => (i === last ? [t, { generateNext: { logits: true } }] : t));
  const results = await sequence.controlledEvaluate(input);
  const byToken = results[last]?.next.logits;
  if (!byToken) throw new Error("nextTokenLogits: llama.cpp returned no logits");
  // With logits requested and no sampling options, llama.cpp returns every vocabulary entry.
  const logits = new Float32Array(byToken.size);
  for (const [token, logit] of byToken) logits[token] = logit;
  return logits;
}
