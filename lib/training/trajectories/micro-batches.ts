// Packs tokenized trajectories into micro-batches: one training row (a history, or part of one:
// tokenize-conversation.ts) per batch row, right-padded to the longest, up to `rows` rows and
// `tokens` padded tokens (the memory a step's activations take); one micro-batch is one gradient step. A trajectory's rows always share a micro-batch, because a
// sequence-level ratio couples all of a trajectory's tokens.
// Per-position arrays describe the *target* at that position (the token the model predicts there).
import { conversationRows } from "@/lib/engine/train/packed-batch";
import type { TokenBatch } from "@/lib/engine/model/llama-model";
import type { TrainingRow } from "./tokenize-conversation";

export interface RlTrajectory {
  rows: TrainingRow[];
  advantage: number;
  /** Token weight (token-weights.ts), the same on every trainable token of the trajectory. */
  weight: number;
}

export interface RlMicroBatch extends TokenBatch {
  /** [M] 1 where the target is a trainable token (m_t). */
  mask: Float32Array;
  /** [M] the sampler's log π_old of the target; NaN where unknown. */
  oldLogprobs: Float32Array;
  /** [M] the trajectory's advantage. */
  advantages: Float32Array;
  /** [M] the trajectory's token weight w_t. */
  weights: Float32Array;
  /** [M] which of this micro-batch's trajectories the position belongs to; −1 on padding. */
  segments: Int32Array;
  numTrajectories: number;
  /** [B] each row's tokens before its padding. */
  rowLengths: number[];
}

export interface MicroBatchLimits {
  rows: number;
  /** Rows × the longest row's length, padding included. */
  tokens: number;
}

export function buildMicroBatches(trajectories: readonly RlTrajectory[], limits: MicroBatchLimits, padId: number): RlMicroBatch[] {
  const batches: RlMicroBatch[] = [];
  let pending: RlTrajectory[] = [];
  let rows = 0;
  let longest = 0;
  for (const t of trajectories) {
    const tLongest = Math.max(...t.rows.map((r) => r.ids.length));
    const fits = rows + t.rows.length <= limits.rows && (rows + t.rows.length) * Math.max(longest, tLongest) <= limits.tokens;
    if (pending.length > 0 && !fits) {
      batches.push(microBatch(pending, padId));
      pending = [];
      rows = 0;
      longest = 0;
    }
    pending.push(t);
    rows += t.rows.length;
    longest = Math.max(longest, tLongest);
  }
  if (pending.length > 0) batches.push(microBatch(pending, padId));
  return batches;
}

function microBatch(trajectories: readonly RlTrajectory[], padId: number): RlMicroBatch {
  const rows = trajectories.flatMap((t, segment) => t.rows.map((h) => ({ h, t, segment })));
  const { tokens, targets, weights: mask, batchSize, seqLen: T } = conversationRows(
    rows.map(({ h }) => ({ ids: h.ids, assistantMask: h.trainable })), padId, "assistant",
  );
  const M = batchSize * T;
  const oldLogprobs = new Float32Array(M).fill(NaN);
  const advantages = new Float32Array(M);
  const weights = new Float32Array(M);
  const segments = new Int32Array(M).fill(-1);
  rows.forEach(({ h, t, segment }, r) => {
    for (let i = 0; i + 1 < h.ids.length; i++) {
      const at = r * T + i;
      oldLogprobs[at] = h.oldLogprobs[i + 1];
      advantages[at] = t.advantage;
      weights[at] = t.weight;
      segments[at] = segment;
    }
  });
  return {
    tokens, targets, batchSize, seqLen: T, mask, oldLogprobs, advantages, weights, segments, numTrajectories: trajectories.length,
    rowLengths: rows.map(({ h }) => h.ids.length),
  };
}
