// A short-lived memo of successful credential and access lookups on the hot path: every chat
// completion checks a key, a team and a project (three queries, ~12 ms of the event loop the
// engine needs on embedded PGlite). Only successes are kept, for 10 s; any change to keys or
// memberships in this process clears everything, so here a revocation or a role change applies at
// once, and other processes (PostgreSQL deployments with several web processes) see it within 10 s.

const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

type Entry = { value: unknown; expires: number };
interface AccessCache {
  entries: Map<string, Entry>;
  /** Bumped by every clear: a lookup that started before a clear may have read the old rows. */
  generation: number;
}
const holder = globalThis as { __annealAccessCache?: AccessCache };
const cache = (holder.__annealAccessCache ??= { entries: new Map(), generation: 0 });

/** The value under key if it was loaded within the TTL, else load it (a rejection is not kept). */
export async function memoAccess<T>(key: string, load: () => Promise<T>): Promise<T> {
  const hit = cache.entries.get(key);
  if (hit && hit.expires > Date.now()) return hit.value as T;
  const generation = cache.generation;
  const value = await load();
  // Not kept when a change cleared the memo while this lookup ran: it may predate the change.
  if (value !== null && value !== undefined && generation === cache.generation) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.clear();
    cache.entries.set(key, { value, expires: Date.now() + TTL_MS });
  }
  return value;
}

/** After any change to API keys, memberships or roles. */
export function clearAccessCache(): void {
  cache.entries.clear();
  cache.generation++;
}
