import { describe, expect, it } from "vitest";
import { AccessMemo } from "./access-cache";

describe("access memo", () => {
  const memo = new AccessMemo(() => true);

  it("keeps successful lookups, not misses", async () => {
    let loads = 0;
    const load = async () => ({ n: ++loads });
    expect(await memo.get("k:hit", load)).toEqual({ n: 1 });
    expect(await memo.get("k:hit", load)).toEqual({ n: 1 });
    let misses = 0;
    const miss = async () => (misses++, null);
    await memo.get("k:miss", miss);
    await memo.get("k:miss", miss);
    expect(misses).toBe(2);
  });

  it("does not keep a lookup that a change cleared the memo during (it may have read the old row)", async () => {
    let release!: () => void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    const inFlight = memo.get("k:race", async () => {
      await loaded;
      return { revoked: false }; // read before the revocation
    });
    memo.forget(); // the revocation commits while the lookup is under way
    release();
    expect(await inFlight).toEqual({ revoked: false });
    expect(await memo.get("k:race", async () => ({ revoked: true }))).toEqual({ revoked: true });
  });

  it("forgets everything on a change", async () => {
    await memo.get("k:gone", async () => ({ v: 1 }));
    memo.forget();
    expect(await memo.get("k:gone", async () => ({ v: 2 }))).toEqual({ v: 2 });
  });

  it("remembers nothing while changes made elsewhere would not be heard", async () => {
    let live = false;
    const deaf = new AccessMemo(() => live);
    let loads = 0;
    const load = async () => ({ n: ++loads });
    await deaf.get("k", load);
    await deaf.get("k", load);
    expect(loads).toBe(2);
    live = true;
    await deaf.get("k", load);
    await deaf.get("k", load);
    expect(loads).toBe(3);
  });
});
