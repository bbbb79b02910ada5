// Feeds tokens into a context sequence (which keeps its KV cache between calls) and returns the raw
// logits of the token that follows them, as a dense array indexed by token id.
//
// node-llama-cpp's public way to get them, `controlledEvaluate` with `generateNext.logits`, creates,
// configures and disposes a native sampler on every call, takes two locks, and hands the logits over
// as a Map of the whole vocabulary that we then copied into an array: per generated token, work on
// the one event loop that every sequence of the process shares (the decode itself runs on a worker
// thread). This file asks for the same decode through the sequence's internal `_decodeTokens`, with
// one greedy native sampler per sequence kept for its lifetime (greedy leaves the logits untouched
// and holds no state), and reads llama.cpp's (token, logit) pairs straight into a Float32Array. Those
// internals are node-llama-cpp's (pinned at 3.22.1, as in grammar-constraint.ts); when they are not
// there, `controlledEvaluate` is used, with the same numbers.

import type { ControlledEvaluateInputItem, LlamaContextSequence, Token } from "node-llama-cpp";
import { erasesDone } from "./erase-gate";

/** Matches node-llama-cpp's default priority for a sequence's evaluations. */
const EVALUATION_PRIORITY = 5;

interface NativeSampler {
  applyConfig(config: object): void;
}

/** The internals of a LlamaContextSequence that `controlledEvaluate` itself uses. */
interface SequenceInternals {
  _decodeTokens(
    tokens: Token[],
    logits: boolean[],
    evaluationPriority: number,
    tokenMeter: unknown,
    contextShift: unknown,
    logitDataMapper: (batchLogitIndex: number, tokenIndex: number) => Promise<unknown>,
    afterBatchAction: (stateLength: number) => unknown,
  ): Promise<unknown[]>;
  _tokenMeter: unknown;
  _contextShift: unknown;
  _takeIntervalCheckpointIfNeededAfterBatch(stateLength: number): unknown;
  _context: { _ctx: { sampleToken(batchLogitIndex: number, sampler: NativeSampler, probabilities: boolean, confidence: boolean, logits: boolean): Promise<unknown[]> } };
  model: { _model: unknown; _llama: { _bindings: { AddonSampler: new (model: unknown) => NativeSampler } } };
}

/** One event loop turn, shared by every caller in the current turn. */
let turn: Promise<void> | undefined;
function nextTurn(): Promise<void> {
  return (turn ??= new Promise<void>((resolve) =>
    setImmediate(() => {
      resolve();
      setImmediate(() => (turn = undefined));
    }),
  ));
}

/** What node-llama-cpp runs after a batch, before it looks for the next one: its own checkpoint
 *  step, then one event loop turn. Each sequence's logits come back through its own native call;
 *  the turn lets every sequence of the batch sample and queue its next decode, so the next batch
 *  holds them all (without it, the last ones often missed it and the sequences fell into groups
 *  decoded one after the other: 8 streams in-process averaged 5–5.6 tokens a batch, now 8). */
async function afterBatch(s: SequenceInternals, stateLength: number): Promise<void> {
  await s._takeIntervalCheckpointIfNeededAfterBatch(stateLength);
  await nextTurn();
}

const samplers = new WeakMap<LlamaContextSequence, NativeSampler>();

function internals(sequence: LlamaContextSequence): SequenceInternals | undefined {
  const s = sequence as unknown as Partial<SequenceInternals>;
  const usable =
    typeof s._decodeTokens === "function" &&
    typeof s._context?._ctx?.sampleToken === "function" &&
    typeof s.model?._llama?._bindings?.AddonSampler === "function" &&
    s._contextShift !== undefined &&
    typeof s._takeIntervalCheckpointIfNeededAfterBatch === "function";
  return usable ? (s as SequenceInternals) : undefined;
}

function samplerOf(sequence: LlamaContextSequence, s: SequenceInternals): NativeSampler {
  let sampler = samplers.get(sequence);
  if (!sampler) {
    sampler = new s.model._llama._bindings.AddonSampler(s.model._model);
    sampler.applyConfig({ temperature: 0 }); // greedy only: llama.cpp returns the logits as computed
    samplers.set(sequence, sampler);
  }
  return sampler;
}

export async function nextTokenLogits(sequence: LlamaContextSequence, tokens: readonly number[]): Promise<Float32Array> {
  if (tokens.length === 0) throw new Error("nextTokenLogits: no tokens to evaluate");
  const s = internals(sequence);
  if (!s) return viaControlledEvaluate(sequence, tokens);
  const erasing = erasesDone(sequence);
  if (erasing) await erasing; // see erase-gate.ts
  const last = tokens.length - 1;
  const sampler = samplerOf(sequence, s);
  const results = await s._decodeTokens(
    tokens as Token[],
    tokens.map((_, i) => i === last),
    EVALUATION_PRIORITY,
    s._tokenMeter,
    s._contextShift,
    (batchLogitIndex) => s._context._ctx.sampleToken(batchLogitIndex, sampler, false, false, true),
    (stateLength: number) => afterBatch(s, stateLength),
  );
  // [token, probabilities, confidence, logits as (token, logit) pairs, total logit weight]
  const pairs = (results[last] as unknown[] | undefined)?.[3] as number[] | undefined;
  if (!pairs) throw new Error("nextTokenLogits: llama.cpp returned no logits");
  const logits = new Float32Array(pairs.length / 2);
  for (let i = 0; i < pairs.length; i += 2) logits[pairs[i]] = pairs[i + 1];
  return logits;
}

/** The same logits through node-llama-cpp's public API (the fallback; tests compare the two). */
export async function viaControlledEvaluate(sequence: LlamaContextSequence, tokens: readonly number[]): Promise<Float32Array> {
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
