import { describe, expect, it } from "vitest";
import { clearAccessCache, memoAccess } from "./access-cache";

describe("access memo", () => {
  it("keeps successful lookups, not misses", async () => {
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await memoAccess("k:hit", load)).toEqual({ n: 1 });
    expect(await memoAccess("k:hit", load)).toEqual({ n: 1 });
    let misses = 0;
    const miss = async () => (misses++, null);
    await memoAccess("k:miss", miss);
    await memoAccess("k:miss", miss);
    expect(misses).toBe(2);
  });

  it("does not keep a lookup that a change cleared the memo during (it may have read the old row)", async () => {
    let release!: () => void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    const inFlight = memoAccess("k:race", async () => {
      await loaded;
      return { revoked: false }; // read before the revocation
    });
    clearAccessCache(); // the revocation commits while the lookup is under way
    release();
    expect(await inFlight).toEqual({ revoked: false });
    expect(await memoAccess("k:race", async () => ({ revoked: true }))).toEqual({ revoked: true });
  });

  it("forgets everything on a change", async () => {
    await memoAccess("k:gone", async () => ({ v: 1 }));
    clearAccessCache();
    expect(await memoAccess("k:gone", async () => ({ v: 2 }))).toEqual({ v: 2 });
  });
});
