// bench:stats' data: a database of its own (a fresh one on a PostgreSQL server, dropped at the end,
// or an embedded PGlite in a temporary directory), migrated, with a user, an API key and a project
// whose feedback is seeded in SQL (INSERT … SELECT generate_series): `rows` rows spread evenly over
// `days` days from `from`, three feedback types, ten trigger refs, payloads with a number (0–100),
// a boolean (70 % true) and one of five categories, pseudo-random but the same on every run; then
// their aggregate cells, built by the backfill of the migration that added them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { createApiKey } from "@/lib/auth/api-keys";
import type { Principal } from "@/lib/auth/principal";
import { createUser } from "@/lib/auth/users";
import { resetEnvCache } from "@/lib/config/env";
import { closeDatabase, getDatabase, getDb } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";

export interface StatsWorld {
  /** `team/project` */
  project: string;
  projectId: string;
  apiKey: string;
  seedSeconds: number;
  /** Building the aggregate cells from the seeded rows, as the migration's backfill does. */
  aggregateSeconds: number;
  close(): Promise<void>;
}

export type DatabaseChoice = { kind: "postgres"; adminUrl: string } | { kind: "pglite" };

/** Points this process's database at a new one; returns how to drop it. */
async function openFresh(choice: DatabaseChoice): Promise<() => Promise<void>> {
  await closeDatabase();
  if (choice.kind === "pglite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-bench-stats-"));
    delete process.env.DATABASE_URL;
    process.env.ANNEAL_DATA_DIR = dir;
    resetEnvCache();
    return async () => {
      await closeDatabase();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const name = `anneal_bench_stats_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: choice.adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(choice.adminUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  resetEnvCache();
  return async () => {
    await closeDatabase();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
}

const SEED = `
  INSERT INTO "Feedback" ("id", "projectId", "feedbackType", "payload", "svcRef", "triggerRef", "wbUserId", "createdAt")
  SELECT gen_random_uuid(), $1::uuid,
    (ARRAY['wandb.annotation.quality', 'grader.v1', 'monitor.score'])[1 + i % 3],
    jsonb_build_object(
      'score', (abs(hashint4(i)::int8) % 10001) / 100.0,
      'ok', abs(hashint4(i + 1)::int8) % 10 < 7,
      'label', (ARRAY['good', 'fair', 'bad', 'off-topic', 'spam'])[1 + abs(hashint4(i + 2)::int8) % 5]),
    $2 || i, $3 || (i % 10) || ':v1', $4::uuid,
    $5::timestamptz + (i + 0.5) * ($6::float8 / $7) * interval '1 second'
  FROM generate_series(0, $7::int - 1) AS i`;

export async function openStatsWorld(choice: DatabaseChoice, seed: { rows: number; from: Date; days: number }): Promise<StatsWorld> {
  const drop = await openFresh(choice);
  try {
    const database = getDatabase();
    await migrate(database.sql);
    const username = `bench-${Date.now().toString(36)}`;
    const { user } = await createUser({ username, email: `${username}@bench.invalid`, password: `pw-${Math.random()}` });
    const principal: Principal = { user: { id: user.id, username, email: user.email, isAdmin: false }, via: "password" };
    const { key } = await createApiKey(principal, { name: "bench" });
    const project = await getDb().project.create({ data: { teamId: (await getDb().team.findUniqueOrThrow({ where: { name: username } })).id, name: "stats" } });
    const ref = `${username}/stats`;

    const started = performance.now();
    // Seeding a million rows is no request: it runs past the 10 s statement bound (lib/db/bounds.ts).
    // The rows go in as an install's existing rows: without the stats triggers; their cells are then
    // built as the migration's backfill builds them.
    let seeded = 0;
    await database.sql.withUnboundedSession(async (session) => {
      await session.exec(`ALTER TABLE "Feedback" DISABLE TRIGGER USER`);
      await session.query(SEED, [project.id, `svc:///${ref}/call/bench-`, `svc:///${ref}/object/monitor-`, user.id, seed.from.toISOString(), seed.days * 86_400, seed.rows]);
      await session.exec(`ALTER TABLE "Feedback" ENABLE TRIGGER USER`);
      await session.exec(`ANALYZE "Feedback"`);
      seeded = performance.now();
      await session.query("SELECT feedback_stats_rebuild()");
      await session.exec(`ANALYZE "FeedbackStatCell"`);
    });
    const done = performance.now();
    return { project: ref, projectId: project.id, apiKey: key, seedSeconds: (seeded - started) / 1000, aggregateSeconds: (done - seeded) / 1000, close: drop };
  } catch (error) {
    await drop();
    throw error;
  }
}
