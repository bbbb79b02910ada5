// How long database work of each kind may take, decided here rather than left to a library's
// default (Prisma's 5 s transaction, a pool that waits forever). PostgreSQL enforces what it can:
// every pooled connection starts with the request kind's statement_timeout, lock_timeout and
// idle_in_transaction_session_timeout (startup parameters of the pool's connections), and a kind
// that differs sets its own with SET LOCAL in its transaction. What PostgreSQL cannot see — the
// wait for a pooled connection, a transaction's whole length (PostgreSQL 17's transaction_timeout
// is not in 15/16) — is bounded on our side. Every bound is under 30 s, so no request hangs past
// that on any single wait; hitting one is a 503 with Retry-After (bound-errors.ts). The values and
// why are in README.md's limits table and docs/operations.md ("Database bounds").

export interface DatabaseBounds {
  /** Waiting for a connection of the pool (all busy), or connecting a new one (pg's connectionTimeoutMillis). */
  poolCheckoutMs: number;
  /** Connections per process (pg Pool max): more requests at once wait, up to poolCheckoutMs. */
  poolSize: number;
  /** Ordinary request statements: per connection, on PostgreSQL. */
  request: {
    statementMs: number;
    lockMs: number;
    idleInTransactionMs: number;
    /** A transaction from BEGIN to COMMIT (Prisma's interactive and batch transactions, raw SQL ones). */
    transactionMs: number;
    /** Prisma's maxWait: getting a transaction started (a connection, BEGIN). */
    transactionStartMs: number;
  };
  /** POST /feedback/stats's statement, the one that reads raw rows in bulk (SET LOCAL in its transaction). */
  stats: { statementMs: number; transactionMs: number };
  /** Writes that a client is not waiting on an answer for, retried after a bound while this long:
   *  a training job's progress (its lease is 30 s) and a batch of recorded calls. */
  retryWritesMs: number;
  /** The embedded database (PGlite): one session, so transactions wait their turn and only these apply. */
  embedded: { transactionMs: number; transactionStartMs: number };
}

export const DATABASE_BOUNDS: DatabaseBounds = {
  // A request that cannot get a connection in 5 s is better refused (the pool's 10 are busy with
  // other requests, each bounded below) than queued behind a backlog it cannot see the end of.
  poolCheckoutMs: 5_000,
  poolSize: 10,
  request: {
    // Anneal's request statements take milliseconds (the feedback query's 10,000-row page and the
    // call log's pages well under a second at a million rows): 10 s is that with room for a machine
    // under load, and still well inside the 30 s after which a request counts as hung.
    statementMs: 10_000,
    // The locks a request waits for are held by other requests' short transactions (a replace, a
    // queue claim, a job's lease row): a wait of 3 s means something else holds the table (DDL, a
    // manual LOCK, a stuck session), and the client is better told at once.
    lockMs: 3_000,
    // No transaction of Anneal waits on anything but the database between its statements: 10 s idle
    // inside one means its process stalled (stopped, event loop blocked) while holding locks.
    idleInTransactionMs: 10_000,
    // Above the statement bound, so one stalled statement is cut by PostgreSQL first (its message
    // is the clearer one); this catches statements that add up.
    transactionMs: 15_000,
    // Above poolCheckoutMs, so a busy pool answers with its own error first.
    transactionStartMs: 6_000,
  },
  stats: {
    // The raw statement took 1.9–2.0 s at a million rows on a quiet 2-core machine and over 5 s
    // under load: 20 s lets it finish on a busy machine and still answers inside 30 s.
    statementMs: 20_000,
    transactionMs: 25_000,
  },
  retryWritesMs: 20_000,
  // PGlite runs one transaction at a time on the event loop that also serves requests: a
  // transaction waits for the others' turns (up to 15 s) and is rolled back after 25 s.
  embedded: { transactionMs: 25_000, transactionStartMs: 15_000 },
};

/** Whether a bound is allowed: positive, and under the 30 s after which a request counts as hung. */
const LIMIT_MS = 30_000;

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

function merge<T extends object>(base: T, patch: DeepPartial<T> | undefined, path: string): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch ?? {})) {
    const current = (base as Record<string, unknown>)[key];
    if (current === undefined) throw new Error(`ANNEAL_TEST_DB_BOUNDS: unknown bound ${path}${key}`);
    if (typeof current === "object") out[key] = merge(current as object, value as object, `${path}${key}.`);
    else if (typeof value !== "number" || !Number.isInteger(value) || value <= 0 || (key !== "poolSize" && value >= LIMIT_MS)) {
      throw new Error(`ANNEAL_TEST_DB_BOUNDS: ${path}${key} must be a whole number of ms from 1 to ${LIMIT_MS - 1}`);
    } else out[key] = value;
  }
  return out as T;
}

let cached: { text: string; bounds: DatabaseBounds } | undefined;

/**
 * The bounds in force. Tests lower one with ANNEAL_TEST_DB_BOUNDS (JSON, e.g.
 * `{"stats":{"statementMs":1000}}`) to stall a statement past it without waiting the real value;
 * per-connection bounds are read when the database opens, the others at each use.
 */
export function databaseBounds(): DatabaseBounds {
  const text = process.env.ANNEAL_TEST_DB_BOUNDS ?? "";
  if (cached?.text !== text) cached = { text, bounds: text ? merge(DATABASE_BOUNDS, JSON.parse(text) as DeepPartial<DatabaseBounds>, "") : DATABASE_BOUNDS };
  return cached.bounds;
}

/** "3 s", "1.5 s", "800 ms": a bound as messages and docs write it. */
export function formatBound(ms: number): string {
  return ms >= 1_000 ? `${Number((ms / 1_000).toFixed(1))} s` : `${ms} ms`;
}
