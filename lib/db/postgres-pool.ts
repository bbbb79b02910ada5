import pg from "pg";
import { databaseBounds } from "@/lib/db/bounds";
import { log } from "@/lib/log";

// The pool of a process's PostgreSQL connections, each opened with the request bounds of
// bounds.ts as startup parameters (PostgreSQL enforces them from the first statement on), and a
// bounded wait for a connection.

/**
 * A pooled connection that remembers the error that ended its session. PostgreSQL ends a session
 * idle in a transaction past idle_in_transaction_session_timeout with a FATAL 25P03 while no query
 * runs; pg emits it as an 'error' event (which, unheard, would crash the process) and later
 * queries only get "Client has encountered a connection error and is not queryable". Here the
 * event is always heard, and the next query on the connection fails with the server's own error,
 * so the request learns which bound it hit.
 */
class BoundedClient extends pg.Client {
  private endedBy?: Error;

  constructor(config?: pg.ClientConfig) {
    super(config);
    this.on("error", (error) => {
      this.endedBy ??= error;
    });
  }

  // Every overload of pg's query: a callback last, or a promise.
  override query(...args: unknown[]): never {
    const ended = this.endedBy;
    if (!ended) return (super.query as (...a: unknown[]) => never)(...args);
    const callback = args.at(-1);
    if (typeof callback === "function") {
      process.nextTick(() => (callback as (error: Error) => void)(ended));
      return undefined as never;
    }
    return Promise.reject(ended) as never;
  }
}

export function openBoundedPool(url: string): pg.Pool {
  const bounds = databaseBounds();
  const pool = new pg.Pool({
    connectionString: url,
    max: bounds.poolSize,
    connectionTimeoutMillis: bounds.poolCheckoutMs,
    statement_timeout: bounds.request.statementMs,
    lock_timeout: bounds.request.lockMs,
    idle_in_transaction_session_timeout: bounds.request.idleInTransactionMs,
    Client: BoundedClient,
  });
  // An idle connection the server ended (restarted, terminated): the pool drops it; unheard, the
  // event would end the process.
  pool.on("error", (error) => log.warn("database: an idle pooled connection was closed", { error }));
  return pool;
}
