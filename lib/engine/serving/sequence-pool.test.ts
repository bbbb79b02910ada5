import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";
import { describe, expect, it } from "vitest";
import { SequencePool, type PoolContexts } from "./sequence-pool";

/** Contexts whose sequences hold the given token histories, handed out in order, numbered from 0;
 *  adapters are names, and switching one clears the context's sequences. */
function fakeContexts(histories: number[][]) {
  let next = 0;
  const created: { count: number; adapter?: string }[] = [];
  const switches: { context: number; adapter?: string }[] = [];
  const adapterOf = new Map<LlamaContext, string | undefined>();
  const create = async (count: number, adapter?: string): Promise<LlamaContext> => {
    const index = created.push({ count, adapter }) - 1;
    const sequences = Array.from({ length: count }, () => {
      const sequence = { id: next, contextTokens: histories[next++] ?? [], clearHistory: async () => void (sequence.contextTokens = []) };
      return sequence as unknown as LlamaContextSequence;
    });
    const all = [...sequences];
    const context = {
      index,
      all,
      get sequencesLeft() { return sequences.length; },
      getSequence: () => sequences.shift()!,
      dispose: async () => undefined,
    } as unknown as LlamaContext;
    adapterOf.set(context, adapter);
    return context;
  };
  const contexts: PoolContexts<string> = {
    create,
    switchAdapter: async (context, adapter) => {
      switches.push({ context: (context as unknown as { index: number }).index, adapter });
      adapterOf.set(context, adapter);
    },
    keyOf: (adapter) => adapter ?? "",
  };
  return { contexts, create, created, switches };
}

const idOf = (s: LlamaContextSequence) => (s as unknown as { id: number }).id;

describe("SequencePool", () => {
  it("prefers the idle sequence whose cache shares the longest prefix with the prompt", async () => {
    const contexts = fakeContexts([[1, 2], [1, 2, 3, 4], [9]]);
    const pool = new SequencePool(contexts.contexts, { sequences: 3, sequencesPerContext: 1 });
    const all = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    all.forEach((s) => pool.release(s));
    expect(idOf(await pool.acquire(undefined, [1, 2, 3, 7]))).toBe(1);
    expect(idOf(await pool.acquire(undefined, [9, 9]))).toBe(2);
  });

  it("creates contexts as requests come, up to the limit, then makes requests wait in order", async () => {
    const contexts = fakeContexts([]);
    const pool = new SequencePool(contexts.contexts, { sequences: 2, sequencesPerContext: 1 });
    const a = await pool.acquire();
    pool.release(a);
    expect(await pool.acquire()).toBe(a); // an idle sequence first, no new context
    await pool.acquire();
    expect(contexts.created.map((c) => c.count)).toEqual([1, 1]);
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
    expect(contexts.created.map((c) => c.count)).toEqual([1, 1]);
  });

  it("hands a context's other sequences to later requests before creating another", async () => {
    const contexts = fakeContexts([]);
    const pool = new SequencePool(contexts.contexts, { sequences: 5, sequencesPerContext: 2 });
    const held = await Promise.all(Array.from({ length: 5 }, () => pool.acquire()));
    expect(new Set(held.map(idOf)).size).toBe(5);
    expect(contexts.created.map((c) => c.count)).toEqual([2, 2, 1]);
  });

  it("fails the request whose context cannot be created, and lets the next one try again", async () => {
    let fail = true;
    const contexts = fakeContexts([]);
    const pool = new SequencePool({
      ...contexts.contexts,
      create: async (count) => {
        if (fail) throw new Error("out of memory");
        return contexts.create(count);
      },
    }, { sequences: 1, sequencesPerContext: 1 });
    await expect(pool.acquire()).rejects.toThrow("out of memory");
    fail = false;
    expect(idOf(await pool.acquire())).toBe(0);
  });

  it("serves an adapter from an idle sequence already serving it, else switches an idle context to it (clearing its cache), else creates one", async () => {
    const contexts = fakeContexts([[1, 2], [1, 2, 3]]);
    const pool = new SequencePool(contexts.contexts, { sequences: 2, sequencesPerContext: 1 });
    const [bare, adapted] = [await pool.acquire(), await pool.acquire("a")];
    expect(contexts.created).toEqual([{ count: 1, adapter: undefined }, { count: 1, adapter: "a" }]);
    pool.release(bare);
    pool.release(adapted);
    expect(await pool.acquire("a", [1, 2])).toBe(adapted); // its adapter beats a longer shared prefix elsewhere
    const switched = await pool.acquire("b", [1, 2]);
    expect(switched).toBe(bare);
    expect(contexts.switches).toEqual([{ context: 0, adapter: "b" }]);
    expect(switched.contextTokens).toEqual([]); // computed with the bare model: not reusable
    expect(contexts.created).toHaveLength(2);
  });

  it("hands a released sequence to the oldest waiter it can serve: its adapter's, or any once its context is idle", async () => {
    const contexts = fakeContexts([]);
    const pool = new SequencePool(contexts.contexts, { sequences: 3, sequencesPerContext: 3 });
    const [a1, a2] = [await pool.acquire("a"), await pool.acquire("a")];
    const a3 = await pool.acquire("a");
    const forB = pool.acquire("b");
    const forA = pool.acquire("a");
    pool.release(a1); // the context still serves a2 and a3 with "a": not for "b"
    expect(await forA).toBe(a1);
    pool.release(a2);
    pool.release(a3);
    pool.release(a1); // now the whole context is idle: "b" takes it, switched
    expect(await forB).toBe(a1);
    expect(contexts.switches).toEqual([{ context: 0, adapter: "b" }]);
    expect(contexts.created).toHaveLength(1);
  });
});
