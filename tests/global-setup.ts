import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrate } from "../lib/db/migrate";
import { pgliteSql, pgPoolSql } from "../lib/db/sql";

// One migrated database for the integration suite: with TEST_DATABASE_URL, a fresh database on
// that PostgreSQL server (dropped afterwards); otherwise a PGlite data directory dumped once, which
// every test worker loads into its own in-memory PGlite (initdb once, not per file).

async function setupPostgres(url: string) {
  const name = `anneal_test_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: target.toString() });
  await migrate(pgPoolSql(pool));
  await pool.end();
  process.env.DATABASE_URL = target.toString();
  console.log(`integration database: PostgreSQL ${target.host}/${name}`);
  return async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  };
}

async function setupPglite() {
  const db = new PGlite();
  await migrate(pgliteSql(db));
  const dump = await db.dumpDataDir("none");
  await db.close();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "anneal-test-")), "db.tar");
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  delete process.env.DATABASE_URL;
  process.env.ANNEAL_TEST_PGLITE_DUMP = file;
  console.log("integration database: in-memory PGlite (migrated template)");
  return async () => fs.rmSync(path.dirname(file), { recursive: true, force: true });
}

export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  return url ? setupPostgres(url) : setupPglite();
}
