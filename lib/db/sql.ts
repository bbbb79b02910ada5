import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";
import { TransactionDeadlineError } from "@/lib/db/bound-errors";
import { databaseBounds } from "@/lib/db/bounds";

// Raw SQL beside Prisma, for what Prisma does not do: migrations, health probes, advisory locks,
// FOR UPDATE SKIP LOCKED claims. One interface over PGlite and node-postgres. Its statements run
// under the bounds of bounds.ts (on PostgreSQL, per connection), and a transaction is rolled back
// once it runs past the transaction bound, as Prisma's are.

export interface SqlSession {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements (no parameters). */
  exec(sql: string): Promise<void>;
}

export interface SqlDatabase extends SqlSession {
  /** Runs fn on one connection (session-level locks and BEGIN/COMMIT hold across its calls). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /** Runs fn in a transaction (committed when it returns, rolled back when it throws or runs
   *  past the transaction bound: its next statement, or its commit, throws TransactionDeadlineError). */
  transaction<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Runs fn on one connection whose statements and lock waits have no time limit: migrations (a
   * backfill takes what it takes; cut, it would be redone at every start and never finish) and the
   * advisory locks that serialise start-up (a process waits for another's migration). Nothing a
   * request runs belongs here. The connection goes back to the pool with its bounds restored.
   */
  withUnboundedSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
}

/** The session, refusing statements once the transaction has run past `limitMs`. */
function withDeadline(session: SqlSession, limitMs: number): SqlSession & { check(): void } {
  const deadline = Date.now() + limitMs;
  const check = () => {
    if (Date.now() > deadline) throw new TransactionDeadlineError(limitMs);
  };
  return {
    check,
    async query<Row>(sql: string, params?: unknown[]) {
      check();
      return session.query<Row>(sql, params);
    },
    async exec(sql: string) {
      check();
      await session.exec(sql);
    },
  };
}

export function pgliteSql(db: PGlite): SqlDatabase {
  const session: SqlSession = {
    async query<Row>(sql: string, params?: unknown[]) {
      return (await db.query<Row>(sql, params)).rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
  };
  // PGlite has exactly one session; callers serialise on it. Its own transaction() holds every
  // other query back until the transaction ends, so none lands inside it.
  return {
    ...session,
    withSession: (fn) => fn(session),
    // PGlite enforces no statement_timeout or lock_timeout (it has no timers, and no other session
    // to wait for): its one session needs none.
    withUnboundedSession: (fn) => fn(session),
    transaction: (fn) =>
      db.transaction(async (tx) => {
        const bounded = withDeadline(
          {
            query: async (sql, params) => (await tx.query(sql, params)).rows as never,
            exec: async (sql) => void (await tx.exec(sql)),
          },
          databaseBounds().embedded.transactionMs,
        );
        const result = await fn(bounded);
        bounded.check();
        return result;
      }),
  };
}

/** Statements on the pool (each on whichever connection is free) or on one checked-out connection. */
function sessionOn(queryable: Pick<Pool, "query">): SqlSession {
  return {
    async query<Row>(sql: string, params?: unknown[]) {
      return (await queryable.query(sql, params)).rows as Row[];
    },
    async exec(sql: string) {
      await queryable.query(sql);
    },
  };
}

export function pgPoolSql(pool: Pool): SqlDatabase {
  const database: SqlDatabase = {
    ...sessionOn(pool),
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn(sessionOn(client));
      } finally {
        client.release();
      }
    },
    transaction(fn) {
      return database.withSession(async (session) => {
        await session.exec("BEGIN");
        try {
          const bounded = withDeadline(session, databaseBounds().request.transactionMs);
          const result = await fn(bounded);
          bounded.check();
          await session.exec("COMMIT");
          return result;
        } catch (error) {
          await session.exec("ROLLBACK").catch(() => undefined);
          throw error;
        }
      });
    },
    async withUnboundedSession(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query("SET statement_timeout = 0; SET lock_timeout = 0");
        return await fn(sessionOn(client));
      } finally {
        // RESET returns to the values the connection started with (the pool's request bounds); a
        // connection that cannot be reset is closed rather than pooled unbounded.
        await client.query("RESET statement_timeout; RESET lock_timeout").catch((error: Error) => (broken = error));
        client.release(broken);
      }
    },
  };
  return database;
}
