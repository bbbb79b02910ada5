import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { getDatabase } from "@/lib/db/client";
import { listMigrations, migrate, pendingMigrations } from "@/lib/db/migrate";
import { createScratchDatabase } from "@/lib/db/scratch-database";
import { diffMigrationsToSchema } from "@/lib/db/schema-diff";
import { pgliteSql, pgPoolSql } from "@/lib/db/sql";

describe("migrations", () => {
  it("agree with schema.prisma (run `npm run db:migration -- <name>` when this fails)", async () => {
    expect(await diffMigrationsToSchema()).toBe("");
  }, 120_000);

  it("are recorded in _prisma_migrations with Prisma's checksums, and re-running applies nothing", async () => {
    const db = getDatabase();
    const rows = await db.sql.query<{ migration_name: string; checksum: string; finished_at: Date | null }>(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => [r.migration_name, r.checksum])).toEqual(listMigrations().map((m) => [m.name, m.checksum]));
    expect(rows.every((r) => r.finished_at)).toBe(true);
    expect(await migrate(db.sql)).toEqual([]);
    expect(await pendingMigrations(db.sql)).toEqual([]);
  });

  // Web processes and workers of a scaled deployment may start together on a fresh database.
  it.runIf(process.env.TEST_DATABASE_URL)("four processes migrating one fresh PostgreSQL database at once all start, and each migration is applied once", async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, "anneal_migrate_race");
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: scratch.url, max: 1 }));
    // Dropping the database ends any connection still closing: expected here, not a failure.
    for (const pool of pools) pool.on("error", () => {});
    try {
      const applied = await Promise.all(pools.map((pool) => migrate(pgPoolSql(pool))));
      expect(applied.flat().sort()).toEqual(listMigrations().map((m) => m.name));
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
      await scratch.drop();
    }
  });

  it("a failing migration rolls back and is reported with its name", async () => {
    const db = new PGlite();
    const sql = pgliteSql(db);
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-mig-"));
    fs.mkdirSync(path.join(dir, "001_ok"));
    fs.writeFileSync(path.join(dir, "001_ok", "migration.sql"), "CREATE TABLE a (id int);");
    fs.mkdirSync(path.join(dir, "002_bad"));
    fs.writeFileSync(path.join(dir, "002_bad", "migration.sql"), "CREATE TABLE b (id int); SELECT no_such_function();");
    await expect(migrate(sql, dir)).rejects.toThrow(/Migration 002_bad failed/);
    expect(await sql.query("SELECT to_regclass('b') AS b")).toEqual([{ b: null }]);
    expect(await pendingMigrations(sql, dir)).toEqual(["002_bad"]);
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
