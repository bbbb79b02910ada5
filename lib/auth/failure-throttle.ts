// Growing delays after repeated failures of one key (an account, a client address): after
// `freeFailures` failures the next attempt waits `firstDelayMs`, and each further failure doubles
// the wait, up to `maxDelayMs`. State is this process's memory, bounded: keys are kept in
// least-recently-used order and the oldest is dropped past `maxKeys`, so a flood of new keys
// cannot grow it; a key idle for `forgetAfterMs` starts afresh. Where other processes count the
// same keys, `sync` takes their shared count before each attempt.

export interface ThrottlePolicy {
  freeFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
  maxKeys: number;
}

interface KeyState {
  failures: number;
  /** Attempts admitted and not yet settled: checked concurrently, they count before they fail. */
  pending: number;
  blockedUntil: number;
  lastFailureAt: number;
  /** Attempts refused since the last failure. */
  refused: number;
  /** Failures counted by `failed` whose shared write has not been confirmed by `recorded`: a read
   *  of the shared count may not hold them yet. */
  unrecorded: number;
  /** `changes` when the shared count last confirmed a failure of the key. */
  failedAt: number;
}

/** The wait imposed after `failures` failures. */
export function delayAfter(failures: number, { freeFailures, firstDelayMs, maxDelayMs }: ThrottlePolicy): number {
  if (failures < freeFailures) return 0;
  return Math.min(maxDelayMs, firstDelayMs * 2 ** Math.min(failures - freeFailures, 30));
}

export class FailureThrottle {
  private readonly keys = new Map<string, KeyState>();
  /** Failures this process has seen recorded in the shared count: a read of it started at
   *  `changes = n` may miss the failures recorded after n (see `sync`). */
  private failuresCounted = 0;

  constructor(
    readonly policy: ThrottlePolicy,
    private readonly now: () => number = Date.now,
  ) {}

  /** How long an attempt for `key` must wait (0: it may start now). */
  waitMs(key: string): number {
    const state = this.current(key);
    if (!state) return 0;
    const wait = Math.max(0, state.blockedUntil - this.now());
    if (wait > 0) return wait;
    // Past the free failures, one attempt at a time: a burst of parallel guesses would otherwise
    // all pass before the first of them fails.
    const overBudget = state.failures + state.pending >= this.policy.freeFailures;
    return overBudget && state.pending > 0 ? this.policy.firstDelayMs : 0;
  }

  /** An attempt admitted by `waitMs` starts: settle it with `failed` or `succeeded`. */
  started(key: string): void {
    const state = this.current(key) ?? this.fresh();
    state.pending += 1;
    this.touch(key, state);
  }

  /** Returns the failures counted so far and the wait it now imposes. Where other processes count
   *  the same keys, call `recorded` once the failure is in the shared count. */
  failed(key: string): { failures: number; waitMs: number } {
    const state = this.current(key) ?? this.fresh();
    const now = this.now();
    state.pending = Math.max(0, state.pending - 1);
    state.failures += 1;
    state.unrecorded += 1;
    state.refused = 0;
    state.lastFailureAt = now;
    const waitMs = delayAfter(state.failures, this.policy);
    state.blockedUntil = now + waitMs;
    this.touch(key, state);
    return { failures: state.failures, waitMs };
  }

  /** A failure counted by `failed` is now in the shared count (or its write gave up): reads of the
   *  shared count that start from now on hold it. */
  recorded(key: string): void {
    const state = this.current(key);
    if (!state) return;
    state.unrecorded = Math.max(0, state.unrecorded - 1);
    state.failedAt = ++this.failuresCounted;
  }

  /** An attempt that did not fail: it succeeded (`forgetFailures` for an account after its right
   *  password), or it could not be checked (an error is not a wrong password). */
  released(key: string, { forgetFailures, settled = true }: { forgetFailures: boolean; settled?: boolean }): void {
    const state = this.current(key);
    if (!state) return;
    if (settled) state.pending = Math.max(0, state.pending - 1);
    if (forgetFailures) {
      state.failures = 0;
      state.blockedUntil = 0;
    }
    if (state.failures === 0 && state.pending === 0) this.keys.delete(key);
  }

  /** A mark to pass to `sync` for a read of the shared count that starts now. */
  get changes(): number {
    return this.failuresCounted;
  }

  /** Takes the key's failures and wait as counted by every process (none: `undefined`) in place of
   *  this one's, read since `readSince` (`changes` when the read started). A failure this process
   *  recorded after that, or has not recorded yet, is newer than the read, which may not hold it:
   *  then the larger count and the later wait win, so parallel guesses cannot lower each other's
   *  count. */
  sync(key: string, shared: { failures: number; waitMs: number } | undefined, readSince = this.failuresCounted): void {
    const state = this.current(key);
    if (state && (state.unrecorded > 0 || state.failedAt > readSince)) {
      state.failures = Math.max(state.failures, shared?.failures ?? 0);
      state.blockedUntil = Math.max(state.blockedUntil, this.now() + (shared?.waitMs ?? 0));
      this.touch(key, state);
      return;
    }
    if (!shared) {
      if (state) this.released(key, { forgetFailures: true, settled: false });
      return;
    }
    const synced = state ?? this.fresh();
    if (synced.failures !== shared.failures) synced.refused = 0;
    synced.failures = shared.failures;
    synced.blockedUntil = this.now() + shared.waitMs;
    synced.lastFailureAt = this.now();
    this.touch(key, synced);
  }

  /** Counts an attempt refused because `waitMs` was not 0; returns the refusals since the last failure. */
  refused(key: string): number {
    const state = this.current(key);
    if (!state) return 0;
    state.refused += 1;
    this.touch(key, state);
    return state.refused;
  }

  get size(): number {
    return this.keys.size;
  }

  private fresh(): KeyState {
    return { failures: 0, pending: 0, blockedUntil: 0, lastFailureAt: 0, refused: 0, unrecorded: 0, failedAt: 0 };
  }

  private current(key: string): KeyState | undefined {
    const state = this.keys.get(key);
    if (!state) return undefined;
    const idle = state.pending === 0 && this.now() - state.lastFailureAt > this.policy.forgetAfterMs;
    if (idle) {
      this.keys.delete(key);
      return undefined;
    }
    return state;
  }

  private touch(key: string, state: KeyState): void {
    this.keys.delete(key); // re-inserted last: Map order is least recently used first
    this.keys.set(key, state);
    for (const oldest of this.keys.keys()) {
      if (this.keys.size <= this.policy.maxKeys) break;
      this.keys.delete(oldest);
    }
  }
}
