// Packs whole chat conversations into a [B,T] training batch: each row holds as many complete
// conversations as fit, one after another, then padding. A conversation is never split across rows,
// so the first one in a row starts at position 0 as at inference. Targets do not cross from one
// conversation into the next (−1 at each conversation's last token and on padding), and a position
// whose loss weight is 0 (a prompt token under "assistant") has none either: the model's output head
// runs only where a target is.

import type { TokenBatch } from "../model/llama-model";
import type { EncodedChat } from "../tokenizer/chatml";

/** Which targets count in the loss: the assistant's tokens only, or every token of a conversation. */
export type LossTokens = "assistant" | "all";

export interface PackedBatch extends TokenBatch {
  /** [B·T] loss weight per position (0 or 1): tokenCrossEntropy's weights. */
  weights: Float32Array;
  /** Conversations packed. */
  conversations: number;
  /** Their tokens (the batch's positions that are not padding). */
  realTokens: number;
}

export function packConversations(
  conversations: Iterator<EncodedChat>,
  options: { batchSize: number; seqLen: number; padId: number; lossTokens: LossTokens },
): PackedBatch {
  const { batchSize: B, seqLen: T, padId, lossTokens } = options;
  const tokens = new Int32Array(B * T).fill(padId);
  const targets = new Int32Array(B * T).fill(-1);
  const weights = new Float32Array(B * T);
  let row = 0, used = 0, packed = 0, realTokens = 0;
  while (row < B) {
    const next = conversations.next();
    if (next.done) break;
    const { ids } = next.value;
    if (ids.length > T) throw new Error(`a conversation of ${ids.length} tokens does not fit a ${T}-token row`);
    if (used + ids.length > T) {
      row++;
      used = 0;
      if (row === B) break;
    }
    place(next.value, row * T + used, tokens, targets, weights, lossTokens);
    used += ids.length;
    realTokens += ids.length;
    packed++;
  }
  return { tokens, targets, weights, batchSize: B, seqLen: T, conversations: packed, realTokens };
}

/** One conversation per row, rows as long as the longest: a small fixed batch (e.g. held-out). */
export function conversationRows(conversations: readonly EncodedChat[], padId: number, lossTokens: LossTokens): PackedBatch {
  const B = conversations.length;
  const T = Math.max(...conversations.map((c) => c.ids.length));
  const tokens = new Int32Array(B * T).fill(padId);
  const targets = new Int32Array(B * T).fill(-1);
  const weights = new Float32Array(B * T);
  conversations.forEach((c, row) => place(c, row * T, tokens, targets, weights, lossTokens));
  return { tokens, targets, weights, batchSize: B, seqLen: T, conversations: B, realTokens: conversations.reduce((n, c) => n + c.ids.length, 0) };
}

function place({ ids, assistantMask }: EncodedChat, at: number, tokens: Int32Array, targets: Int32Array, weights: Float32Array, lossTokens: LossTokens): void {
  tokens.set(ids, at);
  for (let i = 0; i + 1 < ids.length; i++) {
    const weight = lossTokens === "all" || assistantMask[i + 1] ? 1 : 0;
    targets[at + i] = weight ? ids[i + 1] : -1;
    weights[at + i] = weight;
  }
}
