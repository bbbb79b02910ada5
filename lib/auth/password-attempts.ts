import { FailureThrottle, type ThrottlePolicy } from "@/lib/auth/failure-throttle";
import { AppError } from "@/lib/contract/errors";
import { forgetSharedFailures, recordSharedFailure, sharedFailures } from "@/lib/auth/shared-failures";
import { log } from "@/lib/log";

// Every password check (Basic auth, console sign-in, the current password of a password change)
// runs through here: failed ones are throttled per account and per client address, and logged.
// A refused attempt is refused even with the right password (else guessing would go on during the
// wait) and does not count as a failure (so waiting it out is enough). API keys are not throttled:
// they are ~286-bit random secrets, not guessable. Failures are counted in the database, shared by
// every web process (shared-failures.ts); this process's FailureThrottle adds the in-flight rule
// (past the free failures, one attempt at a time per process) and keeps the log quiet.

const MINUTE = 60_000;

/** Per account (known or not, so a 429 does not tell which logins exist): 5 free failures, then
 *  1 s, 2 s, 4 s … capped at 5 min; the right password forgets them. */
const ACCOUNT_POLICY: ThrottlePolicy = { freeFailures: 5, firstDelayMs: 1000, maxDelayMs: 5 * MINUTE, forgetAfterMs: 60 * MINUTE, maxKeys: 10_000 };

/** Per client address, across accounts (one password tried on many accounts): more free failures
 *  for addresses many people share; a success does not forget them, or an attacker's own account
 *  would. */
const ADDRESS_POLICY: ThrottlePolicy = { ...ACCOUNT_POLICY, freeFailures: 20 };

const byAccount = new FailureThrottle(ACCOUNT_POLICY);
const byAddress = new FailureThrottle(ADDRESS_POLICY);

export interface PasswordAttempt {
  /** The user's id when the login names one, else the login itself. */
  account: { userId: string } | { login: string };
  /** The client's address when known (lib/auth/client-address.ts). */
  address: string | null;
  via: "basic" | "console" | "password_change";
}

/** Longer than any email (254): the rest of an unknown login neither names an account nor may
 *  grow the throttle's memory (a Basic header can hold kilobytes). */
const MAX_LOGIN_LENGTH = 256;

function accountKey(account: PasswordAttempt["account"]): string {
  return "userId" in account ? `user:${account.userId}` : `login:${account.login.slice(0, MAX_LOGIN_LENGTH).toLowerCase()}`;
}

function logFields(attempt: PasswordAttempt): Record<string, unknown> {
  const account = "userId" in attempt.account ? { user_id: attempt.account.userId } : { login: attempt.account.login.slice(0, MAX_LOGIN_LENGTH) };
  return { ...account, address: attempt.address, via: attempt.via };
}

function rateLimited(waitMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError("rate_limited", `Too many failed password attempts: try again in ${seconds} s.`, { "Retry-After": String(seconds) });
}

/** The seconds a rate_limited error from `rateLimited` asks to wait. */
export function retryAfterSeconds(error: AppError): number {
  return Number(error.headers["Retry-After"]);
}

/** Runs `check` (does the password match?) unless this account or address must wait, which
 *  throws a 429 AppError with Retry-After. */
export async function checkPasswordThrottled(attempt: PasswordAttempt, check: () => Promise<boolean>): Promise<boolean> {
  const keys: [FailureThrottle, string][] = [[byAccount, accountKey(attempt.account)]];
  if (attempt.address) keys.push([byAddress, `address:${attempt.address}`]);
  // Both policies forget after the same time, so one read serves both keys.
  const readSince = keys.map(([throttle]) => throttle.changes);
  const shared = await sharedFailures(keys.map(([, key]) => key), ACCOUNT_POLICY);
  const waits = keys.map(([throttle, key], i) => {
    throttle.sync(key, shared.get(key), readSince[i]);
    return throttle.waitMs(key);
  });
  const waitMs = Math.max(...waits);
  if (waitMs > 0) {
    // One line per wait, not per refused request: a client hammering a wait would flood the log.
    const refusals = keys.map(([throttle, key], i) => (waits[i] > 0 ? throttle.refused(key) : 0));
    if (refusals.includes(1)) log.warn("password attempts refused until the wait is over", { ...logFields(attempt), retry_after_ms: waitMs });
    throw rateLimited(waitMs);
  }
  for (const [throttle, key] of keys) throttle.started(key);
  let outcome: "match" | "mismatch" | "error" = "error";
  try {
    outcome = (await check()) ? "match" : "mismatch";
    return outcome === "match";
  } finally {
    if (outcome === "mismatch") {
      const [forAccount, forAddress] = await Promise.all(
        keys.map(async ([throttle, key]) => {
          throttle.failed(key);
          let counted: Awaited<ReturnType<typeof recordSharedFailure>>;
          try {
            counted = await recordSharedFailure(key, throttle.policy);
          } finally {
            throttle.recorded(key);
          }
          throttle.sync(key, counted, throttle.changes);
          return counted;
        }),
      );
      log.warn("password attempt failed", {
        ...logFields(attempt),
        account_failures: forAccount.failures,
        address_failures: forAddress?.failures,
        next_attempt_in_ms: Math.max(forAccount.waitMs, forAddress?.waitMs ?? 0),
      });
    } else {
      // The right password forgets the account's failures, not the address's (an attacker's own
      // account would wipe them); an error is no evidence either way.
      for (const [throttle, key] of keys) throttle.released(key, { forgetFailures: outcome === "match" && throttle === byAccount });
      if (outcome === "match" && shared.has(keys[0][1])) await forgetSharedFailures(keys[0][1]);
    }
  }
}
