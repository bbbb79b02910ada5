// A short-lived memo of successful credential and access lookups on the hot path: every chat
// completion checks a key, a team and a project (three queries, ~12 ms of the event loop the
// engine needs on embedded PGlite). Only successes are kept, for 10 s; any change to keys or
// memberships in this process clears everything, so here a revocation or a role change applies at
// once, and other processes (PostgreSQL deployments with several web processes) see it within 10 s.

const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

type Entry = { value: unknown; expires: number };
const holder = globalThis as { __annealAccessCache?: Map<string, Entry> };
const entries = (holder.__annealAccessCache ??= new Map());

/** The value under key if it was loaded within the TTL, else load it (a rejection is not kept). */
export async function memoAccess<T>(key: string, load: () => Promise<T>): Promise<T> {
  const hit = entries.get(key);
  if (hit && hit.expires > Date.now()) return hit.value as T;
  const value = await load();
  if (value !== null && value !== undefined) {
    if (entries.size >= MAX_ENTRIES) entries.clear();
    entries.set(key, { value, expires: Date.now() + TTL_MS });
  }
  return value;
}

/** After any change to API keys, memberships or roles. */
export function clearAccessCache(): void {
  entries.clear();
}
