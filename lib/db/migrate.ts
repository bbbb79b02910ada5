import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { SqlDatabase } from "@/lib/db/sql";

// Applies prisma/migrations/*/migration.sql in order, each in a transaction, recorded in Prisma's
// own `_prisma_migrations` table (checksum = sha256 of the file), so `prisma migrate deploy/status`
// agree wherever Prisma's CLI can run.

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma/migrations");
const PRISMA_ADVISORY_LOCK = 72707369; // the key Prisma's migrate takes

export interface LocalMigration {
  name: string;
  sql: string;
  checksum: string;
}

export function listMigrations(dir = MIGRATIONS_DIR): LocalMigration[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export class MigrationError extends Error {}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/** Applies pending migrations; returns their names. Safe to run concurrently (advisory lock). */
export async function migrate(db: SqlDatabase, dir = MIGRATIONS_DIR): Promise<string[]> {
  const migrations = listMigrations(dir);
  // Unbounded: waiting for another process's migrations, and a migration's own statements, are not
  // requests (sql.ts, withUnboundedSession).
  return db.withUnboundedSession(async (session) => {
    // The lock first: two processes creating the table at once on a fresh database collide in
    // PostgreSQL's catalog (IF NOT EXISTS does not cover the race), and one fails to start.
    await session.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    try {
      await session.exec(CREATE_TABLE);
      const rows = await session.query<AppliedRow>(
        'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL',
      );
      const done = new Map(rows.map((r) => [r.migration_name, r]));
      const applied: string[] = [];
      for (const migration of migrations) {
        const previous = done.get(migration.name);
        if (previous) {
          if (!previous.finished_at) {
            throw new MigrationError(
              `Migration ${migration.name} failed earlier and was not rolled back; fix the database, then mark it rolled back in _prisma_migrations.`,
            );
          }
          continue;
        }
        const id = randomUUID();
        await session.exec("BEGIN");
        try {
          await session.query(
            'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
            [id, migration.checksum, migration.name],
          );
          await session.exec(migration.sql);
          await session.query(
            'UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1',
            [id],
          );
          await session.exec("COMMIT");
          applied.push(migration.name);
        } catch (error) {
          await session.exec("ROLLBACK");
          throw new MigrationError(`Migration ${migration.name} failed: ${(error as Error).message}`);
        }
      }
      return applied;
    } finally {
      await session.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]);
    }
  });
}

/** Migrations in the folder that the database has not applied. */
export async function pendingMigrations(db: SqlDatabase, dir = MIGRATIONS_DIR): Promise<string[]> {
  const exists = await db.query<{ exists: boolean }>(
    "SELECT to_regclass('_prisma_migrations') IS NOT NULL AS exists",
  );
  const names = listMigrations(dir).map((m) => m.name);
  if (!exists[0]?.exists) return names;
  const rows = await db.query<{ migration_name: string }>(
    'SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  const done = new Set(rows.map((r) => r.migration_name));
  return names.filter((n) => !done.has(n));
}
