import { describe, expect, it } from "vitest";
import { FailureThrottle, type ThrottlePolicy } from "@/lib/auth/failure-throttle";

const POLICY: ThrottlePolicy = { freeFailures: 3, firstDelayMs: 1000, maxDelayMs: 10_000, forgetAfterMs: 60_000, maxKeys: 100 };

function throttleWithClock(policy = POLICY) {
  const clock = { now: 0 };
  return { throttle: new FailureThrottle(policy, () => clock.now), clock };
}

/** An attempt that fails and whose failure reaches the shared count. */
function fail(throttle: FailureThrottle, key: string) {
  throttle.started(key);
  const counted = throttle.failed(key);
  throttle.recorded(key);
  return counted;
}

describe("FailureThrottle", () => {
  it("lets the free failures through, then doubles the wait up to the cap", () => {
    const { throttle, clock } = throttleWithClock();
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      expect(throttle.waitMs("k")).toBe(0);
      const { waitMs } = fail(throttle, "k");
      waits.push(waitMs);
      expect(throttle.waitMs("k")).toBe(waitMs);
      clock.now += waitMs;
    }
    expect(waits).toEqual([0, 0, 1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it("the wait shrinks as time passes and ends on time", () => {
    const { throttle, clock } = throttleWithClock();
    for (let i = 0; i < 4; i++) fail(throttle, "k"); // 2 s
    clock.now += 1500;
    expect(throttle.waitMs("k")).toBe(500);
    clock.now += 500;
    expect(throttle.waitMs("k")).toBe(0);
  });

  it("past the free failures, admits one attempt at a time", () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 3; i++) {
      expect(throttle.waitMs("k")).toBe(0);
      throttle.started("k"); // three guesses in flight at once: the free budget
    }
    expect(throttle.waitMs("k")).toBe(POLICY.firstDelayMs);
  });

  it("a success forgets the failures only when asked; an unchecked attempt is no failure", () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 2; i++) fail(throttle, "account");
    throttle.started("account");
    throttle.released("account", { forgetFailures: true });
    expect(throttle.size).toBe(0);

    for (let i = 0; i < 2; i++) fail(throttle, "address");
    throttle.started("address");
    throttle.released("address", { forgetFailures: false });
    expect(fail(throttle, "address")).toEqual({ failures: 3, waitMs: 1000 });
  });

  it("sync takes the failures and wait other processes counted, and forgets them when they are gone", () => {
    const { throttle } = throttleWithClock();
    throttle.sync("k", { failures: 4, waitMs: 2000 });
    expect(throttle.waitMs("k")).toBe(2000);
    expect(fail(throttle, "k").failures).toBe(5);
    throttle.sync("k", undefined);
    expect(throttle.waitMs("k")).toBe(0);
    expect(throttle.size).toBe(0);
  });

  it("a shared count read before this process counted a failure cannot lower its count", () => {
    const { throttle } = throttleWithClock();
    fail(throttle, "k");
    const readSince = throttle.changes;
    for (let i = 0; i < 2; i++) fail(throttle, "k");
    throttle.sync("k", { failures: 1, waitMs: 0 }, readSince);
    expect(throttle.waitMs("k")).toBe(1000);
    throttle.sync("k", undefined, readSince);
    expect(throttle.waitMs("k")).toBe(1000);
    throttle.sync("k", undefined, throttle.changes);
    expect(throttle.waitMs("k")).toBe(0);
  });

  it("a failure whose shared write is still in flight is not lowered by a read that started after it was counted", () => {
    // The CI race: attempt A fails and starts writing; attempt B's read starts and returns before A's
    // write commits, so it holds no failure of A's — it must not reset the count to zero.
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 2; i++) fail(throttle, "k");
    throttle.started("k");
    throttle.failed("k");
    const readSince = throttle.changes;
    throttle.sync("k", { failures: 2, waitMs: 0 }, readSince);
    expect(throttle.waitMs("k")).toBe(1000);
    throttle.sync("k", undefined, readSince);
    expect(throttle.waitMs("k")).toBe(1000);
    throttle.recorded("k");
    throttle.sync("k", { failures: 3, waitMs: 1000 }, throttle.changes);
    expect(throttle.waitMs("k")).toBe(1000);
    throttle.sync("k", undefined, throttle.changes);
    expect(throttle.waitMs("k")).toBe(0);
  });

  it("forgets a key idle for forgetAfterMs", () => {
    const { throttle, clock } = throttleWithClock();
    for (let i = 0; i < 5; i++) fail(throttle, "k");
    clock.now += POLICY.forgetAfterMs + 1;
    expect(throttle.waitMs("k")).toBe(0);
    expect(fail(throttle, "k").failures).toBe(1);
  });

  it("keeps at most maxKeys, dropping the least recently used", () => {
    const { throttle } = throttleWithClock({ ...POLICY, maxKeys: 10 });
    for (let i = 0; i < 5; i++) fail(throttle, "target");
    for (let i = 0; i < 9; i++) fail(throttle, `other-${i}`);
    throttle.refused("target"); // used again: now the most recent
    fail(throttle, "other-9");
    expect(throttle.size).toBe(10);
    expect(throttle.waitMs("target")).toBeGreaterThan(0);
    expect(throttle.waitMs("other-0")).toBe(0); // dropped
    for (let i = 10; i < 1000; i++) fail(throttle, `other-${i}`);
    expect(throttle.size).toBe(10);
  });

  it("counts the refusals since the last failure", () => {
    const { throttle } = throttleWithClock();
    for (let i = 0; i < 3; i++) fail(throttle, "k");
    expect([throttle.refused("k"), throttle.refused("k")]).toEqual([1, 2]);
    fail(throttle, "k");
    expect(throttle.refused("k")).toBe(1);
    expect(throttle.refused("unknown")).toBe(0);
  });
});
