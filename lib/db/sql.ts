import type { PGlite } from "@electric-sql/pglite";
import type { Pool } from "pg";

// Raw SQL beside Prisma, for what Prisma does not do: migrations, health probes, advisory locks,
// FOR UPDATE SKIP LOCKED claims. One interface over PGlite and node-postgres.

export interface SqlSession {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements (no parameters). */
  exec(sql: string): Promise<void>;
}

export interface SqlDatabase extends SqlSession {
  /** Runs fn on one connection (session-level locks and BEGIN/COMMIT hold across its calls). */
  withSession<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
  /** Runs fn in a transaction (committed when it returns, rolled back when it throws). */
  transaction<T>(fn: (session: SqlSession) => Promise<T>): Promise<T>;
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
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: async (sql, params) => (await tx.query(sql, params)).rows as never,
          exec: async (sql) => void (await tx.exec(sql)),
        }),
      ),
  };
}

export function pgPoolSql(pool: Pool): SqlDatabase {
  const database: SqlDatabase = {
    async query<Row>(sql: string, params?: unknown[]) {
      return (await pool.query(sql, params)).rows as Row[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async withSession(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          async query<Row>(sql: string, params?: unknown[]) {
            return (await client.query(sql, params)).rows as Row[];
          },
          async exec(sql: string) {
            await client.query(sql);
          },
        });
      } finally {
        client.release();
      }
    },
    transaction(fn) {
      return database.withSession(async (session) => {
        await session.exec("BEGIN");
        try {
          const result = await fn(session);
          await session.exec("COMMIT");
          return result;
        } catch (error) {
          await session.exec("ROLLBACK").catch(() => undefined);
          throw error;
        }
      });
    },
  };
  return database;
}
