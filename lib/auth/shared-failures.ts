import { getDatabase } from "@/lib/db/client";
import { delayAfter, type ThrottlePolicy } from "./failure-throttle";

// Failed password attempts as every web process sees them: a row per throttle key in
// "PasswordFailure", counted by one upsert on PostgreSQL's clock, so N processes behind a load
// balancer allow the same number of guesses as one. The waits follow FailureThrottle's policy
// (free failures, then doubling up to a cap; idle past the forget time starts afresh). On the
// embedded database there is one process, and the same table serves it.

/** delayAfter as SQL over the expression `failures`, in ms. */
function delaySql(failures: string, policy: ThrottlePolicy): string {
  const { freeFailures, firstDelayMs, maxDelayMs } = policy;
  return `CASE WHEN ${failures} < ${freeFailures} THEN 0 ELSE LEAST(${maxDelayMs}, ${firstDelayMs} * power(2, LEAST(${failures} - ${freeFailures}, 30))) END`;
}

const interval = (ms: string) => `(${ms}) * interval '1 millisecond'`;

export interface SharedState {
  failures: number;
  waitMs: number;
}

/** The keys' failures and waits (keys with none, or idle past the forget time, are left out). */
export async function sharedFailures(keys: string[], policy: ThrottlePolicy): Promise<Map<string, SharedState>> {
  const rows = await getDatabase().sql.query<{ key: string } & SharedState>(
    `SELECT key, failures, GREATEST(0, CEIL(EXTRACT(EPOCH FROM ("blockedUntil" - now())) * 1000))::int AS "waitMs"
       FROM "PasswordFailure" WHERE key = ANY($1::text[]) AND "lastFailureAt" >= now() - ${interval(String(policy.forgetAfterMs))}`,
    [keys],
  );
  return new Map(rows.map(({ key, ...state }) => [key, state]));
}

/** Counts a failure of `key`; returns the failures counted and the wait they now impose. Rows idle
 *  past the forget time go in the same statement, so the table holds only recent failures. */
export async function recordSharedFailure(key: string, policy: ThrottlePolicy): Promise<SharedState> {
  const stale = `now() - ${interval(String(policy.forgetAfterMs))}`;
  const counted = `CASE WHEN p."lastFailureAt" < ${stale} THEN 1 ELSE p.failures + 1 END`;
  const [row] = await getDatabase().sql.query<{ failures: number }>(
    `WITH forgotten AS (DELETE FROM "PasswordFailure" WHERE "lastFailureAt" < ${stale} AND key <> $1)
     INSERT INTO "PasswordFailure" AS p (key, failures, "blockedUntil", "lastFailureAt")
     VALUES ($1, 1, now() + ${interval(delaySql("1", policy))}, now())
     ON CONFLICT (key) DO UPDATE SET failures = ${counted}, "blockedUntil" = now() + ${interval(delaySql(counted, policy))}, "lastFailureAt" = now()
     RETURNING failures`,
    [key],
  );
  return { failures: row.failures, waitMs: delayAfter(row.failures, policy) };
}

/** Forgets the key's failures (an account's right password). */
export async function forgetSharedFailures(key: string): Promise<void> {
  await getDatabase().sql.query(`DELETE FROM "PasswordFailure" WHERE key = $1`, [key]);
}
