import pg from "pg";
import { describe, expect, it } from "vitest";
import { ACCESS_CHANGED_SQL } from "@/lib/auth/access-cache";
import { getDatabase } from "@/lib/db/client";
import { api } from "./http";
import { createTestTeam } from "./factories";

// Access changes made by another process (another web process on the same PostgreSQL): the memo of
// keys and memberships hears them through LISTEN/NOTIFY, and remembers nothing while it cannot.
// "Another process" is a connection of its own here, writing as that process's code does (the
// change and its notice in one transaction), without clearing this process's memo.

const live = () => getDatabase().changes.live;

describe.skipIf(!process.env.DATABASE_URL)("access changes from other processes (PostgreSQL)", () => {
  async function elsewhere(sql: string, params: unknown[]): Promise<void> {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query("BEGIN");
      await client.query(sql, params);
      await client.query(ACCESS_CHANGED_SQL);
      await client.query("COMMIT");
    } finally {
      await client.end();
    }
  }
  const status = async (key: string, path = "/v1/me") => (await api("GET", path, { bearer: key })).status;
  /** Milliseconds until `check` holds (polled every 10 ms), or a failure after 3 s. */
  async function msUntil(check: () => Promise<boolean>): Promise<number> {
    const start = performance.now();
    while (!(await check())) {
      if (performance.now() - start > 3000) throw new Error("not within 3 s");
      await new Promise((r) => setTimeout(r, 10));
    }
    return performance.now() - start;
  }

  it("a key revoked by another process stops working here within a second", async () => {
    const team = await createTestTeam();
    expect(await status(team.member.key)).toBe(200);
    await expect.poll(live).toBe(true);
    expect(await status(team.member.key)).toBe(200); // remembered now
    await elsewhere(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "userId" = $1`, [team.member.principal.user.id]);
    expect(await msUntil(async () => (await status(team.member.key)) === 401)).toBeLessThan(1000);
  });

  it("a membership removed by another process ends access here within a second", async () => {
    const team = await createTestTeam();
    const teamPath = `/v1/teams/${team.name}/members`;
    await expect.poll(live).toBe(true);
    expect(await status(team.member.key, teamPath)).toBe(200);
    await elsewhere(`DELETE FROM "Membership" WHERE "userId" = $1`, [team.member.principal.user.id]);
    expect(await msUntil(async () => (await status(team.member.key, teamPath)) === 404)).toBeLessThan(1000);
  });

  it("while the listening connection is lost nothing is remembered; it reconnects", async () => {
    const team = await createTestTeam();
    expect(await status(team.member.key)).toBe(200);
    await expect.poll(live).toBe(true);
    const { sql } = getDatabase();
    await sql.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'anneal-change-feed' AND datname = current_database() AND pid <> pg_backend_pid()`);
    await expect.poll(live).toBe(false);
    // A change without a notice (a writer killed between commit and notify) is seen at once.
    await sql.query(`UPDATE "ApiKey" SET "revokedAt" = now() WHERE "userId" = $1`, [team.member.principal.user.id]);
    expect(await status(team.member.key)).toBe(401);
    await expect.poll(live, { timeout: 5000 }).toBe(true);
    expect(await status(team.admin.key)).toBe(200);
  });
});
