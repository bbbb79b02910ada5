import { getDatabase } from "@/lib/db/client";
import { notifySql, type ChangeFeed } from "@/lib/db/change-feed";

// A short-lived memo of successful credential and access lookups on the hot path: every chat
// completion checks a key, a team and a project (three queries, ~12 ms of the event loop the
// engine needs on embedded PGlite). Only successes are kept, for 10 s. A change to keys or
// memberships clears the memo of every process: in this one at once, in the others when the
// change's notice arrives (PostgreSQL's LISTEN/NOTIFY through the database's change feed, within
// milliseconds of the commit). While a process cannot hear notices (its listening connection is
// lost), it remembers nothing and checks every request against the database; the 10 s expiry only
// bounds what a notice missed on a silently cut connection (before its ping notices) leaves behind.

const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;
export const ACCESS_CHANGED_CHANNEL = "anneal_access_changed";

type Entry = { value: unknown; expires: number };

export class AccessMemo {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every clear: a lookup that started before a clear may have read the old rows. */
  private generation = 0;

  /** `hearsChanges`: whether a change made elsewhere now would reach this process (else no memo). */
  constructor(private readonly hearsChanges: () => boolean) {}

  /** The value under key if it was loaded within the TTL, else load it (a rejection is not kept). */
  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!this.hearsChanges()) return load();
    const hit = this.entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    const generation = this.generation;
    const value = await load();
    // Not kept when a change cleared the memo while this lookup ran: it may predate the change.
    if (value !== null && value !== undefined && generation === this.generation) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, { value, expires: Date.now() + TTL_MS });
    }
    return value;
  }

  forget(): void {
    this.entries.clear();
    this.generation++;
  }
}

/** This process's memo, listening on its database's change feed from the first lookup. */
const holder = globalThis as { __annealAccessMemo?: AccessMemo };
let subscribedTo: ChangeFeed | undefined;
const memo = (holder.__annealAccessMemo ??= new AccessMemo(() => {
  const { changes } = getDatabase();
  if (subscribedTo !== changes) {
    subscribedTo = changes;
    changes.subscribe(ACCESS_CHANGED_CHANNEL, { onChange: () => memo.forget(), onGap: () => memo.forget() });
  }
  return changes.live;
}));

export const memoAccess = <T>(key: string, load: () => Promise<T>): Promise<T> => memo.get(key, load);

/** SQL to run in the transaction of any change to API keys, memberships or roles: every process
 *  forgets what it remembered when the change commits. */
export const ACCESS_CHANGED_SQL = notifySql(ACCESS_CHANGED_CHANNEL);

/** After such a change committed: this process forgets at once (without waiting for the notice). */
export function clearAccessCache(): void {
  memo.forget();
}
