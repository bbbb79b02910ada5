// Generation with Anneal's sampler: one leased sequence, the prompt's logits from llama.cpp, then
// sample → feed back → repeat. A prompt that shares a prefix with what the sequence already holds
// reuses that part of its KV cache (RL samples many completions of one prompt).

import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { GrammarConstraint, type GrammarSpec } from "./grammar-constraint";
import type { AdapterRef, ModelRegistry } from "./model-registry";
import { nextTokenLogits } from "./next-token-logits";
import { Sampler, type SamplingParams } from "./sampler";
import { commonPrefixLength } from "./sequence-pool";

export interface GenerateRequest {
  /** Path of a GGUF file. */
  model: string;
  adapter?: AdapterRef;
  promptTokens: readonly number[];
  maxTokens: number;
  sampling?: SamplingParams;
  /** Constrain the output to a JSON schema or a GBNF grammar. */
  grammar?: GrammarSpec;
  /** Tokens that end generation, not emitted (default: the model's end-of-generation tokens). */
  stopTokens?: readonly number[];
}

export interface GeneratedToken {
  token: number;
  /** log p(token) under the model's unmodified distribution (temperature 1, no penalties). */
  logprob: number;
  /** Text this token completes; "" while a multi-byte character is still incomplete. */
  text: string;
}

export type FinishReason = "stop" | "length";

export async function* generate(registry: ModelRegistry, request: GenerateRequest): AsyncGenerator<GeneratedToken, FinishReason> {
  const prompt = request.promptTokens;
  if (prompt.length === 0) throw new Error("generate: empty prompt");
  const lease = await registry.lease(request.model, request.adapter, prompt);
  try {
    const { model, sequence } = lease;
    if (prompt.length >= sequence.contextSize) throw new Error(`generate: prompt of ${prompt.length} tokens fills the context (${sequence.contextSize})`);
    const grammar = request.grammar && (await GrammarConstraint.create(model, request.grammar));
    const isStop = request.stopTokens ? (t: number) => request.stopTokens!.includes(t) : (t: number) => model.isEogToken(t as Token);
    const sampler = new Sampler(request.sampling ?? {}, prompt);
    const text = new TextStream(model);

    let logits = await nextTokenLogits(sequence, await tokensToEvaluate(sequence, prompt));
    for (let produced = 0; produced < request.maxTokens; produced++) {
      const token = sampler.sample(logits, grammar?.isAllowed);
      if (isStop(token)) return "stop";
      grammar?.accept(token);
      yield { token, logprob: logSoftmaxAt(logits, token), text: text.push(token) };
      if (sequence.nextTokenIndex + 1 >= sequence.contextSize) return "length";
      logits = await nextTokenLogits(sequence, [token]);
    }
    return "length";
  } finally {
    lease.release();
  }
}

export interface GenerationResult {
  tokens: number[];
  logprobs: number[];
  text: string;
  finishReason: FinishReason;
}

export async function generateText(registry: ModelRegistry, request: GenerateRequest): Promise<GenerationResult> {
  const result: GenerationResult = { tokens: [], logprobs: [], text: "", finishReason: "length" };
  const stream = generate(registry, request);
  for (let step = await stream.next(); ; step = await stream.next()) {
    if (step.done) return { ...result, finishReason: step.value };
    result.tokens.push(step.value.token);
    result.logprobs.push(step.value.logprob);
    result.text += step.value.text;
  }
}

/** Keeps the cached prefix the prompt shares with the sequence, erases the rest, and returns the
 *  prompt tokens still to evaluate (at least one: its logits are the first step's). */
async function tokensToEvaluate(sequence: LlamaContextSequence, prompt: readonly number[]): Promise<readonly number[]> {
  const keep = Math.min(commonPrefixLength(sequence.contextTokens, prompt), prompt.length - 1);
  if (sequence.nextTokenIndex > keep) await sequence.eraseContextTokenRanges([{ start: keep, end: sequence.nextTokenIndex }]);
  return prompt.slice(keep);
}

function logSoftmaxAt(logits: Float32Array, token: number): number {
  let max = -Infinity;
  for (const l of logits) if (l > max) max = l;
  let sum = 0;
  for (const l of logits) sum += Math.exp(l - max);
  return logits[token] - max - Math.log(sum);
}

/** Detokenizes incrementally, holding tokens back while they end in an incomplete UTF-8 character. */
class TextStream {
  private pending: Token[] = [];
  private readonly previous: Token[] = [];

  constructor(private readonly model: LlamaModel) {}

  push(token: number): string {
    this.pending.push(token as Token);
    const text = this.model.detokenize(this.pending, false, this.previous);
    const incomplete = text.endsWith("\uFFFD") && this.pending.length < 4; // UTF-8 characters span ≤ 4 bytes
    if (incomplete) return "";
    this.previous.push(...this.pending);
    this.pending = [];
    return text;
  }
}
