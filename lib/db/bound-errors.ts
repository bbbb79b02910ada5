import { AppError } from "@/lib/contract/errors";
import { databaseBounds, formatBound } from "@/lib/db/bounds";

// A bound of bounds.ts that was hit, recognised in what each layer throws, and the 503 it answers.
// What reaches us (measured on PostgreSQL 15, pg 8, Prisma 7 with @prisma/adapter-pg):
// - PostgreSQL's SQLSTATE: 57014 query_canceled (statement_timeout, or pg_cancel_backend), 55P03
//   lock_not_available (lock_timeout), 25P03 idle_in_transaction_session_timeout (a FATAL that ends
//   the session; postgres-pool.ts hands it to the next query on that connection). Raw SQL gets pg's
//   DatabaseError (`code`); Prisma wraps it in a PrismaClientKnownRequestError whose own code varies
//   (P2010 raw query, P2039 a model query…) and keeps the SQLSTATE in meta.driverAdapterError.cause.
// - pg-pool: Error("timeout exceeded when trying to connect") when no pooled connection came free
//   within connectionTimeoutMillis, Error("Connection terminated due to connection timeout") when a
//   new one could not connect in that time. @prisma/adapter-pg rethrows both as they are.
// - Prisma's transactions: P2028 "Unable to start a transaction in the given time" (maxWait) and
//   "A query|commit cannot be executed on an expired transaction. The timeout for this transaction
//   was N ms…" (timeout; Prisma has rolled it back). P2024 (pool timeout) came from Prisma's Rust
//   engine, which driver adapters replace; it is recognised all the same.
// - Our own raw SQL transactions (sql.ts): TransactionDeadlineError.

export type BoundName = "pool" | "connect" | "transaction_start" | "transaction" | "statement" | "cancelled" | "lock" | "idle_in_transaction";

const TRANSACTION_DEADLINE = Symbol.for("anneal.TransactionDeadlineError");

/** A raw SQL transaction (sql.ts) ran past its bound; it was rolled back. */
export class TransactionDeadlineError extends Error {
  readonly [TRANSACTION_DEADLINE] = true;

  constructor(readonly limitMs: number) {
    super(`The transaction ran past its ${formatBound(limitMs)} limit and was rolled back.`);
    this.name = "TransactionDeadlineError";
  }
}

interface ErrorShape {
  code?: unknown;
  severity?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; originalMessage?: unknown } } };
  cause?: { originalCode?: unknown; originalMessage?: unknown };
}

/** The SQLSTATE and server message of a failure, whichever layer wrapped it. */
function postgresFailure(error: ErrorShape): { code: string; message: string } | undefined {
  const cause = error.meta?.driverAdapterError?.cause ?? error.cause;
  if (typeof cause?.originalCode === "string") return { code: cause.originalCode, message: String(cause.originalMessage ?? "") };
  // pg's and PGlite's DatabaseError: a five-character code and a severity (Prisma's P-codes have none).
  if (typeof error.code === "string" && typeof error.severity === "string") return { code: error.code, message: String(error.message ?? "") };
  return undefined;
}

export interface BoundHit {
  bound: BoundName;
  /** The limit that was hit, where the error says it or it is the only one of its kind. */
  limitMs?: number;
  /** The server's own words, where they add something (a statement cancelled by an operator). */
  detail?: string;
}

/** Which bound an error is, or undefined when it is not a bound. */
export function boundHit(error: unknown): BoundHit | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const shape = error as ErrorShape;
  const bounds = databaseBounds();
  if (TRANSACTION_DEADLINE in error) return { bound: "transaction", limitMs: (error as TransactionDeadlineError).limitMs };
  const message = typeof shape.message === "string" ? shape.message : "";
  if (message === "timeout exceeded when trying to connect") return { bound: "pool", limitMs: bounds.poolCheckoutMs };
  if (message === "Connection terminated due to connection timeout") return { bound: "connect", limitMs: bounds.poolCheckoutMs };
  if (shape.code === "P2024") return { bound: "pool" };
  if (shape.code === "P2028") {
    if (message.includes("Unable to start a transaction in the given time")) return { bound: "transaction_start" };
    const expired = message.match(/expired transaction\. The timeout for this transaction was (\d+) ms/);
    if (expired) return { bound: "transaction", limitMs: Number(expired[1]) };
    return undefined;
  }
  const failure = postgresFailure(shape);
  switch (failure?.code) {
    case "57014":
      return failure.message.includes("statement timeout")
        ? { bound: "statement", limitMs: bounds.request.statementMs }
        : { bound: "cancelled", detail: failure.message };
    case "55P03":
      return { bound: "lock", limitMs: bounds.request.lockMs };
    case "25P03":
      return { bound: "idle_in_transaction", limitMs: bounds.request.idleInTransactionMs };
    default:
      return undefined;
  }
}

/** Whether an error is a bound hit: the work was not done, and doing it again later may succeed. */
export const isBoundHit = (error: unknown): boolean => boundHit(error) !== undefined;

const RETRY_AFTER_S: Record<BoundName, number> = {
  pool: 1,
  transaction_start: 1,
  connect: 2,
  transaction: 2,
  cancelled: 2,
  lock: 2,
  idle_in_transaction: 2,
  // A statement that ran its whole bound met a busy database: retrying at once adds to the load.
  statement: 5,
};

const within = (limitMs: number | undefined) => (limitMs === undefined ? "" : ` within ${formatBound(limitMs)}`);
const over = (limitMs: number | undefined) => (limitMs === undefined ? " past its limit" : ` past its ${formatBound(limitMs)} limit`);
const ROLLED_BACK = "its transaction was rolled back, so nothing of it was written; retry the request.";

function describe(hit: BoundHit, what: string): string {
  switch (hit.bound) {
    case "pool":
      return `No database connection came free${within(hit.limitMs)} (every connection of this process was busy): ${what} was not run; retry the request.`;
    case "connect":
      return `Connecting to the database took longer than ${formatBound(hit.limitMs ?? 0)}: ${what} was not run; retry the request.`;
    case "transaction_start":
      return `A database transaction of ${what} could not start in time (every connection was busy): nothing was written; retry the request.`;
    case "transaction":
      return `The database transaction of ${what} ran${over(hit.limitMs)}: ${ROLLED_BACK}`;
    case "statement":
      return `A database statement of ${what} ran${over(hit.limitMs)} (statement_timeout) and was cancelled: ${ROLLED_BACK}`;
    case "cancelled":
      return `The database cancelled a statement of ${what} (${hit.detail ?? "query_canceled"}): ${ROLLED_BACK}`;
    case "lock":
      return `A database lock that ${what} needs was held by another session for more than ${formatBound(hit.limitMs ?? 0)} (lock_timeout): ${ROLLED_BACK}`;
    case "idle_in_transaction":
      return `The database transaction of ${what} sat idle for more than ${formatBound(hit.limitMs ?? 0)} and the database ended it: ${ROLLED_BACK}`;
  }
}

/**
 * The 503 (with Retry-After) for an error that is a bound hit, else undefined. `what` names the work
 * ("this request", "the feedback stats query"); `limitMs` overrides the limit for kinds with their own.
 */
export function boundExceededError(error: unknown, what = "this request", limits: Partial<Record<BoundName, number>> = {}): AppError | undefined {
  const hit = boundHit(error);
  if (!hit) return undefined;
  const limitMs = limits[hit.bound] ?? hit.limitMs;
  return new AppError("unavailable", describe({ ...hit, limitMs }, what), { "Retry-After": String(RETRY_AFTER_S[hit.bound]) });
}

/**
 * Runs a write (one transaction or statement: whole or nothing) again while it fails on a bound,
 * for up to `forMs`, pausing 0.25 s doubling to 2 s between tries: for writes nobody is waiting
 * to hear refused (a training job's progress, recorded calls), which a stall must delay, not lose.
 */
export async function retryOnBound<T>(write: () => Promise<T>, forMs = databaseBounds().retryWritesMs): Promise<T> {
  const until = Date.now() + forMs;
  for (let pauseMs = 250; ; pauseMs = Math.min(pauseMs * 2, 2_000)) {
    try {
      return await write();
    } catch (error) {
      if (!isBoundHit(error) || Date.now() + pauseMs > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}
