import { describe, expect, it } from "vitest";
import { LruCache } from "./lru-cache";

describe("LruCache", () => {
  it("evicts the least recently used idle entries beyond its limit", () => {
    const busy = new Set<string>();
    const evicted: string[] = [];
    const cache = new LruCache<string, string>(2, (v) => busy.has(v), (v) => evicted.push(v));
    cache.set("a", "a");
    cache.set("b", "b");
    cache.get("a"); // b is now the oldest
    cache.set("c", "c");
    expect(evicted).toEqual(["b"]);

    busy.add("a");
    cache.set("d", "d"); // a is older but busy: c goes
    expect(evicted).toEqual(["b", "c"]);
    busy.add("d");
    cache.set("e", "e"); // the others are busy and the newest stays: over the limit until released
    expect(evicted).toEqual(["b", "c"]);
    busy.clear();
    cache.trim();
    expect(evicted).toEqual(["b", "c", "a"]);
  });

  it("forgets a key only if it still holds the given value", () => {
    const evicted: number[] = [];
    const cache = new LruCache<string, number>(5, () => false, (v) => evicted.push(v));
    cache.set("k", 1);
    cache.forget("k", 2);
    expect(cache.get("k")).toBe(1);
    cache.forget("k", 1);
    expect(cache.get("k")).toBeUndefined();
    expect(evicted).toEqual([]);
  });
});
