import { describe, expect, it } from "vitest";
import { apiKeyPage, apiKeySchema, createdApiKeySchema, meSchema } from "@/lib/auth/schemas";
import { getDb } from "@/lib/db/client";
import { api, json } from "./http";
import { createTestTeam, createTestUser } from "./factories";

describe("API keys", () => {
  it("creates a key shown once, lists it without its secret, and the key authenticates", async () => {
    const owner = await createTestUser();
    const created = await json(api("POST", "/v1/api-keys", { bearer: owner.key, body: { name: "ci runner" } }));
    expect(created.status).toBe(201);
    const key = createdApiKeySchema.parse(created.body);
    expect(key.key).toMatch(/^ank_[0-9A-Za-z]{48}$/);
    expect(key).toMatchObject({ name: "ci runner", team: null, last_used_at: null, revoked_at: null, prefix: key.key.slice(0, 12) });

    const stored = await getDb().apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(stored.hash).not.toContain(key.key);
    expect(JSON.stringify(stored)).not.toContain(key.key.slice(12));

    const list = await json(api("GET", "/v1/api-keys", { bearer: key.key }));
    expect(list.status).toBe(200);
    const page = apiKeyPage.parse(list.body);
    expect(page.data.map((k) => k.name).sort()).toEqual(["ci runner", "test"]);
    expect(JSON.stringify(list.body)).not.toContain(key.key.slice(12));

    const me = await json(api("GET", "/v1/me", { bearer: key.key }));
    expect(meSchema.parse(me.body)).toMatchObject({ user: { username: owner.username }, auth: "api_key", default_project: `${owner.username}/default` });
    const used = await getDb().apiKey.findUniqueOrThrow({ where: { id: key.id } });
    await expect.poll(async () => (await getDb().apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).not.toBeNull();
    expect(used.revokedAt).toBeNull();
  });

  it("a revoked key stops working at once; revoking again is a no-op", async () => {
    const owner = await createTestUser();
    const { body: created } = await json(api("POST", "/v1/api-keys", { bearer: owner.key, body: { name: "short-lived" } }));
    expect((await api("GET", "/v1/me", { bearer: created.key })).status).toBe(200);
    const revoked = await json(api("DELETE", `/v1/api-keys/${created.id}`, { bearer: owner.key }));
    expect(revoked.status).toBe(200);
    expect(apiKeySchema.parse(revoked.body).revoked_at).not.toBeNull();
    const after = await json(api("GET", "/v1/me", { bearer: created.key }));
    expect(after).toEqual({ status: 401, body: { detail: "Invalid or revoked API key." } });
    expect((await api("DELETE", `/v1/api-keys/${created.id}`, { bearer: owner.key })).status).toBe(200);
    const listed = apiKeyPage.parse((await json(api("GET", "/v1/api-keys?include_revoked=true", { bearer: owner.key }))).body);
    expect(listed.data.find((k) => k.id === created.id)?.revoked_at).toBe(revoked.body.revoked_at);
    const live = apiKeyPage.parse((await json(api("GET", "/v1/api-keys", { bearer: owner.key }))).body);
    expect(live.data.find((k) => k.id === created.id)).toBeUndefined();
  });

  it("another user's key is invisible: revoking it is a 404", async () => {
    const alice = await createTestUser();
    const bob = await createTestUser();
    const aliceKey = (await getDb().apiKey.findFirstOrThrow({ where: { userId: alice.principal.user.id } })).id;
    expect(await json(api("DELETE", `/v1/api-keys/${aliceKey}`, { bearer: bob.key }))).toEqual({
      status: 404,
      body: { detail: `API key '${aliceKey}' not found.` },
    });
    expect((await api("GET", "/v1/me", { bearer: alice.key })).status).toBe(200);
  });

  it("a team-scoped key acts only in its team and mints only keys for that team", async () => {
    const team = await createTestTeam();
    const { body: scoped } = await json(api("POST", "/v1/api-keys", { bearer: team.member.key, body: { name: "scoped", team: team.name } }));
    expect(scoped.team).toBe(team.name);
    const me = meSchema.parse((await json(api("GET", "/v1/me", { bearer: scoped.key }))).body);
    expect(me.teams.map((t) => t.name)).toEqual([team.name]);
    expect(me.default_project).toBe(`${team.name}/default`); // its usage lands in its own team
    // Its owner's personal team is out of its reach.
    const personal = await json(api("GET", `/v1/teams/${team.member.username}/projects`, { bearer: scoped.key }));
    expect(personal.status).toBe(404);
    const minted = await json(api("POST", "/v1/api-keys", { bearer: scoped.key, body: { name: "child" } }));
    expect(minted.status).toBe(201);
    expect(minted.body.team).toBe(team.name);
    const escalate = await json(api("POST", "/v1/api-keys", { bearer: scoped.key, body: { name: "x", team: team.member.username } }));
    expect(escalate.status).toBe(404);
  });

  it("paginates with an exclusive cursor and rejects an unknown one", async () => {
    const owner = await createTestUser();
    for (const name of ["k1", "k2", "k3"]) await api("POST", "/v1/api-keys", { bearer: owner.key, body: { name } });
    const first = apiKeyPage.parse((await json(api("GET", "/v1/api-keys?limit=2", { bearer: owner.key }))).body);
    expect(first.data.map((k) => k.name)).toEqual(["test", "k1"]);
    expect(first.has_more).toBe(true);
    const second = apiKeyPage.parse((await json(api("GET", `/v1/api-keys?limit=2&after=${first.last_id}`, { bearer: owner.key }))).body);
    expect(second.data.map((k) => k.name)).toEqual(["k2", "k3"]);
    expect(second.has_more).toBe(false);
    const desc = apiKeyPage.parse((await json(api("GET", "/v1/api-keys?order=desc&limit=1", { bearer: owner.key }))).body);
    expect(desc.data[0].name).toBe("k3");
    const unknown = await json(api("GET", "/v1/api-keys?after=00000000-0000-7000-8000-000000000000", { bearer: owner.key }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0].loc).toEqual(["query", "after"]);
  });
});
