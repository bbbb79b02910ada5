import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { SequencePool } from "./sequence-pool";

function fakeContext(histories: number[][]): LlamaContext {
  const sequences = histories.map((contextTokens, id) => ({ id, contextTokens }) as unknown as LlamaContextSequence);
  return {
    get sequencesLeft() { return sequences.length; },
    getSequence: () => sequences.shift()!,
  } as unknown as LlamaContext;
}

const idOf = (s: LlamaContextSequence) => (s as unknown as { id: number }).id;

describe("SequencePool", () => {
  it("prefers the sequence whose cache shares the longest prefix with the prompt", async () => {
    const pool = new SequencePool(fakeContext([[1, 2], [1, 2, 3, 4], [9]]));
    expect(idOf(await pool.acquire([1, 2, 3, 7]))).toBe(1);
    expect(idOf(await pool.acquire([9, 9]))).toBe(2);
  });

  it("makes requests wait in order when every sequence is busy", async () => {
    const pool = new SequencePool(fakeContext([[], []]));
    const a = await pool.acquire();
    await pool.acquire();
    const order: string[] = [];
    const third = pool.acquire().then((s) => (order.push("third"), s));
    const fourth = pool.acquire().then((s) => (order.push("fourth"), s));
    expect(pool.inUse).toBe(true);
    pool.release(a);
    expect(idOf(await third)).toBe(idOf(a));
    await Promise.resolve();
    expect(order).toEqual(["third"]);
    pool.release(await third);
    await fourth;
    expect(order).toEqual(["third", "fourth"]);
  });
});
