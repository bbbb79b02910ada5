import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrate } from "../lib/db/migrate";
import { createScratchDatabase } from "../lib/db/scratch-database";
import { pgliteSql, pgPoolSql } from "../lib/db/sql";

// One migrated database for the integration suite: with TEST_DATABASE_URL, a fresh database on
// that PostgreSQL server, which each test file copies into a database of its own (setup-db.ts;
// all dropped afterwards); otherwise a PGlite data directory dumped once, which every test file
// loads into its own in-memory PGlite (initdb once, not per file). Either way no file sees another
// file's rows: a job queued by one file is never claimed by another file's running trainer.

async function setupPostgres(url: string) {
  const template = await createScratchDatabase(url, "anneal_test");
  const pool = new pg.Pool({ connectionString: template.url });
  await migrate(pgPoolSql(pool));
  await pool.end();
  process.env.ANNEAL_TEST_TEMPLATE_DATABASE_URL = template.url;
  console.log(`integration database: PostgreSQL ${new URL(template.url).host}${new URL(template.url).pathname}, copied per test file`);
  return async () => {
    // The files' copies are dropped by each file; one that crashed leaves its copy behind.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const name = new URL(template.url).pathname.slice(1);
    const { rows } = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [`${name}_`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.end();
    await template.drop();
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
