// Generation with Anneal's sampler: one leased sequence, the prompt's logits from llama.cpp, then
// sample → feed back → repeat. A prompt that shares a prefix with what the sequence already holds
// reuses that part of its KV cache (RL samples many completions of one prompt).

import type { LlamaContextSequence, LlamaGrammar, LlamaModel, Token } from "node-llama-cpp";
import { eraseTokens } from "./erase-gate";
import { GrammarConstraint } from "./grammar-constraint";
import type { AdapterRef, ModelRegistry, SequenceLease } from "./model-registry";
import { nextTokenLogits } from "./next-token-logits";
import { TokenBuffer } from "./token-buffer";
import { nulTokenIds } from "./nul-tokens";
import { Sampler, type SamplingParams } from "./sampler";
import { commonPrefixLength } from "./sequence-pool";

export interface GenerateRequest {
  /** Path of a GGUF file. */
  model: string;
  adapter?: AdapterRef;
  promptTokens: readonly number[];
  maxTokens: number;
  sampling?: SamplingParams;
  /** Constrain the output to a compiled grammar (compiled once per request, shared by its choices). */
  grammar?: LlamaGrammar;
  /** Tokens that end generation, not emitted, besides the model's end-of-generation tokens. */
  stopTokens?: readonly number[];
  /** Do not stop at the model's end-of-generation tokens. */
  ignoreEos?: boolean;
  /** Stop tokens are masked until this many tokens have been produced. */
  minTokens?: number;
  /** Token sequences that must not be generated: a sequence's last token is masked whenever the
   *  output ends with the rest of it. */
  bannedSequences?: readonly (readonly number[])[];
  /** How many most likely alternatives (with log-probabilities) to report per token. */
  topLogprobs?: number;
  /** Include special tokens' text in the output (default: omit it). */
  renderSpecialTokens?: boolean;
  /** Ends generation early (a client that went away). */
  signal?: AbortSignal;
}

export interface GeneratedToken {
  token: number;
  /** log p(token) under the model's unmodified distribution (temperature 1, no penalties). */
  logprob: number;
  /** Text this token completes; "" while a multi-byte character is still incomplete. */
  text: string;
  /** The most likely tokens at this step, most likely first (with `topLogprobs`). */
  top?: TokenLogprob[];
}

export interface TokenLogprob {
  token: number;
  logprob: number;
}

export type FinishReason = "stop" | "length" | "abort";

export interface Finish {
  reason: FinishReason;
  /** The stop token that ended generation, when one did (not emitted as text). */
  stopToken?: number;
  /** Its log-probability and alternatives, like a generated token's: RL trains stopping on it. */
  stopLogprob?: number;
  stopTop?: TokenLogprob[];
}

export async function* generate(registry: ModelRegistry, request: GenerateRequest): AsyncGenerator<GeneratedToken, Finish> {
  const prompt = request.promptTokens;
  if (prompt.length === 0) throw new Error("generate: empty prompt");
  const lease = await registry.lease(request.model, request.adapter, prompt);
  // The decode loop runs on its own and hands tokens over through a buffer: how long the consumer
  // takes with a token (formatting, writing to a socket) never delays the next decode, so a
  // context's sequences stay batched as they would with an idle consumer.
  const tokens = new TokenBuffer<GeneratedToken, Finish>();
  let consumerGone = false;
  const production = produce(lease, request, tokens, () => consumerGone);
  try {
    let next = await tokens.next();
    for (; !next.done; next = await tokens.next()) yield next.value;
    return next.value;
  } finally {
    consumerGone = true;
    await production;
    lease.release();
  }
}

/** The decode loop of one generation: its tokens, then its Finish (or error), into `out`. */
async function produce(lease: SequenceLease, request: GenerateRequest, out: TokenBuffer<GeneratedToken, Finish>, consumerGone: () => boolean): Promise<void> {
  try {
    out.finish(await decodeLoop(lease, request, out, consumerGone));
  } catch (error) {
    out.fail(error);
  }
}

async function decodeLoop(lease: SequenceLease, request: GenerateRequest, out: TokenBuffer<GeneratedToken, Finish>, consumerGone: () => boolean): Promise<Finish> {
  const prompt = request.promptTokens;
  const { model, sequence } = lease;
  if (prompt.length >= sequence.contextSize) throw new Error(`generate: prompt of ${prompt.length} tokens fills the context (${sequence.contextSize})`);
  const grammar = request.grammar && GrammarConstraint.create(model, request.grammar);
  const extraStops = new Set(request.stopTokens ?? []);
  const isStop = (t: number) => extraStops.has(t) || (!request.ignoreEos && model.isEogToken(t as Token));
  let logits = await nextTokenLogits(sequence, await tokensToEvaluate(sequence, prompt));
  const sampling = request.sampling ?? {};
  const banned = [...(sampling.bannedTokenIds ?? []), ...nulTokenIds(model, logits.length)];
  const sampler = new Sampler({ ...sampling, bannedTokenIds: banned }, prompt);
  const text = new TextStream(model, request.renderSpecialTokens ?? false);
  const minTokens = request.minTokens ?? 0;
  const topLogprobs = request.topLogprobs ?? 0;
  const output: number[] = [];
  for (let produced = 0; produced < request.maxTokens; produced++) {
    if (request.signal?.aborted || consumerGone()) return { reason: "abort" };
    const early = produced < minTokens;
    const bannedHere = bannedNext(request.bannedSequences ?? [], output);
    const isAllowed =
      early || grammar || bannedHere.size > 0
        ? (t: number) => !bannedHere.has(t) && !(early && isStop(t)) && (grammar?.isAllowed(t) ?? true)
        : undefined;
    const token = sampler.sample(logits, isAllowed);
    const logprobs = logSoftmax(logits);
    if (isStop(token)) {
      return { reason: "stop", stopToken: token, stopLogprob: logprobs[token], ...(topLogprobs > 0 && { stopTop: mostLikely(logprobs, topLogprobs) }) };
    }
    grammar?.accept(token);
    output.push(token);
    const generated: GeneratedToken = { token, logprob: logprobs[token], text: text.push(token), ...(topLogprobs > 0 && { top: mostLikely(logprobs, topLogprobs) }) };
    const last = produced + 1 === request.maxTokens || sequence.nextTokenIndex + 1 >= sequence.contextSize;
    // Queued before the token is handed over (nothing between the two can throw and leave the
    // decode unawaited), so the consumer's turn overlaps this decode.
    const next = last ? undefined : nextTokenLogits(sequence, [token]);
    out.push(generated);
    if (!next) return { reason: "length" };
    logits = await next;
  }
  return { reason: "length" };
}

export interface GenerationResult {
  tokens: number[];
  logprobs: number[];
  text: string;
  finishReason: FinishReason;
  stopToken?: number;
}

export async function generateText(registry: ModelRegistry, request: GenerateRequest): Promise<GenerationResult> {
  const result: GenerationResult = { tokens: [], logprobs: [], text: "", finishReason: "length" };
  const stream = generate(registry, request);
  for (let step = await stream.next(); ; step = await stream.next()) {
    if (step.done) return { ...result, finishReason: step.value.reason, stopToken: step.value.stopToken };
    result.tokens.push(step.value.token);
    result.logprobs.push(step.value.logprob);
    result.text += step.value.text;
  }
}

/** Keeps the cached prefix the prompt shares with the sequence, erases the rest, and returns the
 *  prompt tokens still to evaluate (at least one: its logits are the first step's). */
async function tokensToEvaluate(sequence: LlamaContextSequence, prompt: readonly number[]): Promise<readonly number[]> {
  const keep = Math.min(commonPrefixLength(sequence.contextTokens, prompt), prompt.length - 1);
  if (sequence.nextTokenIndex > keep) await eraseTokens(sequence, [{ start: keep, end: sequence.nextTokenIndex }]);
  return prompt.slice(keep);
}

/** The tokens that would complete a banned sequence after `output`. */
function bannedNext(sequences: readonly (readonly number[])[], output: readonly number[]): Set<number> {
  const banned = new Set<number>();
  for (const s of sequences) {
    if (s.length === 0 || s.length - 1 > output.length) continue;
    let matches = true;
    for (let i = 0; i < s.length - 1 && matches; i++) matches = output[output.length - (s.length - 1) + i] === s[i];
    if (matches) banned.add(s[s.length - 1]);
  }
  return banned;
}

/** log p of every token under the raw logits (temperature 1, before any penalty or mask). */
export function logSoftmax(logits: Float32Array): Float64Array {
  let max = -Infinity;
  for (const l of logits) if (l > max) max = l;
  let sum = 0;
  for (const l of logits) sum += Math.exp(l - max);
  const logZ = max + Math.log(sum);
  const out = new Float64Array(logits.length);
  for (let t = 0; t < logits.length; t++) out[t] = logits[t] - logZ;
  return out;
}

/** The k most likely tokens, most likely first (ties by id). */
export function mostLikely(logprobs: Float64Array, k: number): TokenLogprob[] {
  const top: TokenLogprob[] = [];
  for (let token = 0; token < logprobs.length; token++) {
    const logprob = logprobs[token];
    if (top.length === k && logprob <= top[k - 1].logprob) continue;
    let i = Math.min(top.length, k - 1);
    while (i > 0 && top[i - 1].logprob < logprob) i--;
    top.splice(i, 0, { token, logprob });
    if (top.length > k) top.pop();
  }
  return top;
}

/** Detokenizes incrementally, holding tokens back while they end in an incomplete UTF-8 character. */
class TextStream {
  private pending: Token[] = [];
  private readonly previous: Token[] = [];

  constructor(
    private readonly model: LlamaModel,
    private readonly renderSpecialTokens: boolean,
  ) {}

  push(token: number): string {
    this.pending.push(token as Token);
    const text = this.model.detokenize(this.pending, this.renderSpecialTokens, this.previous);
    const incomplete = text.endsWith("\uFFFD") && this.pending.length < 4; // UTF-8 characters span ≤ 4 bytes
    if (incomplete) return "";
    this.previous.push(...this.pending);
    this.pending = [];
    return text;
  }
}
