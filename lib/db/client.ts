import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { dataDir, getEnv } from "@/lib/config/env";
import { embeddedChangeFeed, PostgresChangeFeed, type ChangeFeed } from "@/lib/db/change-feed";
import { PrismaClient } from "@/lib/db/generated/client";
import { databaseBounds } from "@/lib/db/bounds";
import { acquireDataDirLock } from "@/lib/db/lock";
import { openBoundedPool } from "@/lib/db/postgres-pool";
import { pgliteSql, pgPoolSql, type SqlDatabase } from "@/lib/db/sql";

// One database per process, opened on first use and kept on globalThis so Next's module copies
// (route bundles, instrumentation) and scripts share it. Nothing here runs at import time.

export type DatabaseKind = "pglite" | "postgres";

export interface Database {
  kind: DatabaseKind;
  prisma: PrismaClient;
  sql: SqlDatabase;
  /** Notices of changes from every process on this database (change-feed.ts). */
  changes: ChangeFeed;
  close(): Promise<void>;
}

const key = Symbol.for("anneal.database");
type Holder = { [key]?: Database };
const holder = globalThis as Holder;

// Prisma's transactions (interactive and batch) get the bounds of bounds.ts, never its defaults.
// PGlite runs transactions one after another on its single session: waiting ones get more room.

export function openPostgres(url: string): Database {
  const pool = openBoundedPool(url);
  const { transactionMs, transactionStartMs } = databaseBounds().request;
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: transactionStartMs, timeout: transactionMs } });
  const changes = new PostgresChangeFeed(url);
  return {
    kind: "postgres",
    prisma,
    sql: pgPoolSql(pool),
    changes,
    async close() {
      await changes.close();
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
    },
  };
}

/** PGlite over a live PGlite instance (embedded data directory, or in memory for tests). */
export function pgliteDatabase(db: PGlite, release: () => void = () => undefined): Database {
  const { transactionMs, transactionStartMs } = databaseBounds().embedded;
  const prisma = new PrismaClient({
    adapter: new PrismaPGlite(db),
    transactionOptions: { maxWait: transactionStartMs, timeout: transactionMs },
  });
  return {
    kind: "pglite",
    prisma,
    sql: pgliteSql(db),
    changes: embeddedChangeFeed(),
    async close() {
      await prisma.$disconnect();
      await db.close().catch(() => undefined);
      release();
    },
  };
}

export function openEmbedded(dir: string): Database {
  const release = acquireDataDirLock(dir);
  try {
    const dbDir = path.join(dir, "db");
    fs.mkdirSync(dbDir, { recursive: true });
    return pgliteDatabase(new PGlite(dbDir), release);
  } catch (error) {
    release();
    throw error;
  }
}

/** A test database: an in-memory PGlite loaded from a migrated data-directory dump. */
function openMemoryFromDump(dumpFile: string): Database {
  const dump = new Blob([fs.readFileSync(dumpFile)]);
  return pgliteDatabase(new PGlite({ loadDataDir: dump }));
}

function openConfigured(): Database {
  const env = getEnv();
  if (env.DATABASE_URL) return openPostgres(env.DATABASE_URL);
  const testDump = process.env.ANNEAL_TEST_PGLITE_DUMP;
  if (testDump) return openMemoryFromDump(testDump);
  return openEmbedded(dataDir(env));
}

export function getDatabase(): Database {
  return (holder[key] ??= openConfigured());
}

/** The Prisma client of this process's database. */
export function getDb(): PrismaClient {
  return getDatabase().prisma;
}

export function isDatabaseOpen(): boolean {
  return holder[key] !== undefined;
}

export async function closeDatabase(): Promise<void> {
  const db = holder[key];
  holder[key] = undefined;
  await db?.close();
}
