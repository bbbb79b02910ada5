import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { apiKeyMatches, apiKeyPrefix } from "@/lib/auth/api-key-secret";
import { openEmbedded } from "@/lib/db/client";
import { createScratchDatabase } from "@/lib/db/scratch-database";
import { listMigrations } from "@/lib/db/migrate";

// The operator CLI, run as a user runs it (`npm run anneal -- …` is `tsx scripts/anneal.ts …`),
// against an embedded database in a fresh data directory.

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-cli-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function anneal(...args: string[]) {
  // The CLI's own embedded database, not the suite's.
  const { DATABASE_URL: _, ANNEAL_TEST_PGLITE_DUMP: __, ...inherited } = process.env;
  const env = { ...inherited, ANNEAL_DATA_DIR: dataDir };
  const result = spawnSync(path.resolve("node_modules/.bin/tsx"), ["scripts/anneal.ts", ...args], { env, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("npm run anneal", () => {
  it("migrates, creates a user and a key (printing only the key), and resets a password", async () => {
    expect(anneal("migrate")).toMatchObject({ code: 0, stdout: expect.stringMatching(/^applied: \d+_init/) });
    expect(anneal("migrate")).toMatchObject({ code: 0, stdout: "the database is up to date\n" });

    const user = anneal("create-user", "--username", "ops", "--email", "Ops@Example.test", "--admin");
    expect(user.code).toBe(0);
    expect(user.stdout).toMatch(/^created ops \(ops@example\.test\) as an instance admin\npassword: \S{20,}\n$/);

    const key = anneal("create-api-key", "--email", "ops@example.test", "--name", "ci");
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/^ank_[0-9A-Za-z]{48}\n$/);

    expect(anneal("reset-password", "--username", "ops", "--password", "a-new-password")).toMatchObject({
      code: 0,
      stdout: "password of ops changed\n",
    });

    const db = openEmbedded(dataDir);
    try {
      const secret = key.stdout.trim();
      const row = await db.prisma.apiKey.findUniqueOrThrow({ where: { prefix: apiKeyPrefix(secret) } });
      expect(apiKeyMatches(secret, row.hash)).toBe(true);
      expect(row.name).toBe("ci");
    } finally {
      await db.close();
    }
  }, 120_000);

  it("explains usage errors with exit code 2", () => {
    const unknown = anneal("frobnicate");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'[\s\S]*usage: npm run anneal/);
    const missing = anneal("create-api-key", "--email", "ops@example.test");
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringMatching(/missing --name/) });
    const noUser = anneal("create-api-key", "--email", "nobody@example.test", "--name", "x");
    expect(noUser).toMatchObject({ code: 2, stderr: expect.stringMatching(/no user with email nobody@example.test/) });
  }, 60_000);

  it("says clearly that the server must be stopped when another process holds the database", async () => {
    const holder = spawn(process.execPath, [
      "-e",
      `require("fs").writeFileSync(${JSON.stringify(path.join(dataDir, "anneal.lock"))}, JSON.stringify({pid: process.pid, hostname: require("os").hostname()})); console.log("ready"); setTimeout(() => {}, 60000);`,
    ]);
    await new Promise((resolve) => holder.stdout.once("data", resolve));
    try {
      const result = anneal("create-api-key", "--email", "ops@example.test", "--name", "x");
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/in use by another Anneal process \(pid \d+ .*Stop that process first/);
    } finally {
      holder.kill("SIGKILL");
    }
  }, 60_000);
});

describe("npm run worker", () => {
  it("refuses the embedded database: it belongs to npm start, which trains jobs itself", () => {
    const { DATABASE_URL: _, ANNEAL_TEST_PGLITE_DUMP: __, ...inherited } = process.env;
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/worker.ts"], { env: { ...inherited, ANNEAL_DATA_DIR: dataDir }, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/npm run worker needs DATABASE_URL \(PostgreSQL\)/);
  });

  // The processes of a deployment may start in any order: a worker first migrates the database.
  it.runIf(process.env.TEST_DATABASE_URL)("migrates a fresh PostgreSQL database, then claims jobs, and stops on SIGTERM", async () => {
    const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!, "anneal_worker_first");
    const { ANNEAL_TEST_PGLITE_DUMP: _, ...inherited } = process.env;
    // As package.json runs it: Node with tsx as a loader, so the signal reaches the worker itself (the tsx
    // CLI relays signals and SIGKILLs a child whose event loop does not answer within 60 ms).
    const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
      env: { ...inherited, DATABASE_URL: scratch.url, ANNEAL_DATA_DIR: dataDir, ANNEAL_LOG_LEVEL: "error" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => worker.once("exit", (code) => resolve(code)));
    try {
      let stdout = "";
      let stderr = "";
      worker.stderr.on("data", (chunk) => (stderr += chunk));
      await new Promise<void>((resolve, reject) => {
        worker.stdout.on("data", (chunk) => {
          stdout += chunk;
          if (/training jobs \(\d+ at a time\)/.test(stdout)) resolve();
        });
        void exited.then((code) => reject(new Error(`the worker exited (${code}) before it started:\n${stdout}${stderr}`)));
      });
      expect(stdout).toMatch(/^anneal worker: applied migrations: \d+_init/);
      const check = new pg.Client({ connectionString: scratch.url });
      await check.connect();
      const rows = await check.query('SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name');
      await check.end();
      expect(rows.rows.map((r) => r.migration_name)).toEqual(listMigrations().map((m) => m.name));
      worker.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      worker.kill("SIGKILL");
      await scratch.drop();
    }
  }, 60_000);
});
