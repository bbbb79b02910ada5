import { describe, expect, it } from "vitest";
import type { EncodedChat } from "../tokenizer/chatml";
import { conversationRows, packConversations } from "./packed-batch";

const chat = (ids: number[], mask: number[]): EncodedChat => ({ ids, assistantMask: Uint8Array.from(mask) });

describe("packConversations", () => {
  const conversations = [chat([1, 2, 3], [0, 1, 1]), chat([4, 5], [0, 1]), chat([6, 7, 8, 9], [0, 0, 1, 1]), chat([10], [0])];

  it("keeps conversations whole, targets inside each, and weights on assistant targets", () => {
    const b = packConversations(conversations.values(), { batchSize: 2, seqLen: 6, padId: 0, lossTokens: "assistant" });
    expect([...b.tokens]).toEqual([1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 0]);
    expect([...b.targets]).toEqual([2, 3, -1, 5, -1, -1, -1, 8, 9, -1, -1, -1]); // no target where no loss
    expect([...b.weights]).toEqual([1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0]);
    expect([b.conversations, b.realTokens]).toEqual([4, 10]);
  });

  it("weights every target with lossTokens 'all' and stops when the rows are full", () => {
    const b = packConversations(conversations.values(), { batchSize: 1, seqLen: 6, padId: 0, lossTokens: "all" });
    expect([...b.targets]).toEqual([2, 3, -1, 5, -1, -1]);
    expect([...b.weights]).toEqual([1, 1, 0, 1, 0, 0]);
    expect([b.conversations, b.realTokens]).toEqual([2, 5]);
  });

  it("refuses a conversation longer than a row", () => {
    expect(() => packConversations([chat([1, 2, 3], [0, 0, 1])].values(), { batchSize: 1, seqLen: 2, padId: 0, lossTokens: "all" })).toThrow(/does not fit/);
  });

  it("puts one conversation per row with conversationRows", () => {
    const b = conversationRows(conversations.slice(0, 2), 0, "assistant");
    expect([b.batchSize, b.seqLen]).toEqual([2, 3]);
    expect([...b.tokens]).toEqual([1, 2, 3, 4, 5, 0]);
    expect([...b.targets]).toEqual([2, 3, -1, 5, -1, -1]);
    expect([...b.weights]).toEqual([1, 1, 0, 1, 0, 0]);
  });
});
