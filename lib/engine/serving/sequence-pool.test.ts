import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { SequencePool } from "./sequence-pool";

/** Contexts whose sequences hold the given token histories, handed out in order, numbered from 0. */
function fakeContexts(histories: number[][]) {
  let next = 0;
  const created: number[] = [];
  const create = async (count: number): Promise<LlamaContext> => {
    created.push(count);
    const sequences = Array.from({ length: count }, () => ({ id: next, contextTokens: histories[next++] ?? [] }) as unknown as LlamaContextSequence);
    return {
      get sequencesLeft() { return sequences.length; },
      getSequence: () => sequences.shift()!,
      dispose: async () => undefined,
    } as unknown as LlamaContext;
  };
  return { create, created };
}

const idOf = (s: LlamaContextSequence) => (s as unknown as { id: number }).id;

describe("SequencePool", () => {
  it("prefers the idle sequence whose cache shares the longest prefix with the prompt", async () => {
    const contexts = fakeContexts([[1, 2], [1, 2, 3, 4], [9]]);
    const pool = new SequencePool(contexts.create, { sequences: 3, sequencesPerContext: 1 });
    const all = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    all.forEach((s) => pool.release(s));
    expect(idOf(await pool.acquire([1, 2, 3, 7]))).toBe(1);
    expect(idOf(await pool.acquire([9, 9]))).toBe(2);
  });

  it("creates contexts as requests come, up to the limit, then makes requests wait in order", async () => {
    const contexts = fakeContexts([]);
    const pool = new SequencePool(contexts.create, { sequences: 2, sequencesPerContext: 1 });
    const a = await pool.acquire();
    pool.release(a);
    expect(await pool.acquire()).toBe(a); // an idle sequence first, no new context
    await pool.acquire();
    expect(contexts.created).toEqual([1, 1]);
    const order: string[] = [];
    const third = pool.acquire().then((s) => (order.push("third"), s));
    const fourth = pool.acquire().then((s) => (order.push("fourth"), s));
    expect(pool.inUse).toBe(true);
    pool.release(a);
    expect(await third).toBe(a);
    await Promise.resolve();
    expect(order).toEqual(["third"]);
    pool.release(await third);
    await fourth;
    expect(order).toEqual(["third", "fourth"]);
    expect(contexts.created).toEqual([1, 1]);
  });

  it("hands a context's other sequences to later requests before creating another", async () => {
    const contexts = fakeContexts([]);
    const pool = new SequencePool(contexts.create, { sequences: 5, sequencesPerContext: 2 });
    const held = await Promise.all(Array.from({ length: 5 }, () => pool.acquire()));
    expect(new Set(held.map(idOf)).size).toBe(5);
    expect(contexts.created).toEqual([2, 2, 1]);
  });

  it("fails the request whose context cannot be created, and lets the next one try again", async () => {
    let fail = true;
    const contexts = fakeContexts([]);
    const pool = new SequencePool(async (count) => {
      if (fail) throw new Error("out of memory");
      return contexts.create(count);
    }, { sequences: 1, sequencesPerContext: 1 });
    await expect(pool.acquire()).rejects.toThrow("out of memory");
    fail = false;
    expect(idOf(await pool.acquire())).toBe(0);
  });
});
