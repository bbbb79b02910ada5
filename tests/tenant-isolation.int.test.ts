import { describe, expect, it } from "vitest";
import { apiKeyPage, memberPage } from "@/lib/auth/schemas";
import { api, json } from "./http";
import { createTestTeam } from "./factories";

// What the console's Settings pages show comes from these lists: another team's keys and members
// must be invisible (absent from lists, 404 when addressed), whoever asks.

describe("tenant isolation: API keys", () => {
  it("lists only the caller's own keys; another team's key is a 404 to revoke and an unknown cursor", async () => {
    const a = await createTestTeam();
    const b = await createTestTeam();
    const { body: bKey } = await json(api("POST", "/v1/api-keys", { bearer: b.admin.key, body: { name: "b-secret", team: b.name } }));
    const aList = apiKeyPage.parse((await json(api("GET", "/v1/api-keys?include_revoked=true", { bearer: a.admin.key }))).body);
    expect(aList.data.map((k) => k.name)).toEqual(["test"]);
    expect(JSON.stringify(aList)).not.toContain(bKey.prefix);
    // Not even a teammate sees another member's keys.
    const teammate = apiKeyPage.parse((await json(api("GET", "/v1/api-keys", { bearer: a.member.key }))).body);
    expect(teammate.data.every((k) => k.prefix !== a.admin.key.slice(0, 12))).toBe(true);

    expect(await json(api("DELETE", `/v1/api-keys/${bKey.id}`, { bearer: a.admin.key }))).toEqual({
      status: 404,
      body: { detail: `API key '${bKey.id}' not found.` },
    });
    const cursor = await json(api("GET", `/v1/api-keys?after=${bKey.id}`, { bearer: a.admin.key }));
    expect(cursor.status).toBe(422);
    // The foreign key is still live.
    expect((await api("GET", "/v1/me", { bearer: bKey.key })).status).toBe(200);
  });

  it("a key cannot be scoped to another team", async () => {
    const a = await createTestTeam();
    const b = await createTestTeam();
    const scoped = await json(api("POST", "/v1/api-keys", { bearer: a.admin.key, body: { name: "x", team: b.name } }));
    expect(scoped).toEqual({ status: 404, body: { detail: `Team '${b.name}' not found.` } });
  });
});

describe("tenant isolation: members", () => {
  it("another team's members are a 404 to list, change or remove, and nothing changes", async () => {
    const a = await createTestTeam();
    const b = await createTestTeam();
    for (const caller of [a.admin, a.member]) {
      expect((await json(api("GET", `/v1/teams/${b.name}/members`, { bearer: caller.key }))).status).toBe(404);
    }
    const patch = await json(api("PATCH", `/v1/teams/${b.name}/members/${b.member.username}`, { bearer: a.admin.key, body: { role: "admin" } }));
    expect(patch).toEqual({ status: 404, body: { detail: `Team '${b.name}' not found.` } });
    const del = await json(api("DELETE", `/v1/teams/${b.name}/members/${b.member.username}`, { bearer: a.admin.key }));
    expect(del.status).toBe(404);
    const add = await json(api("POST", `/v1/teams/${b.name}/members`, { bearer: a.admin.key, body: { username: a.member.username } }));
    expect(add.status).toBe(404);

    const bMembers = memberPage.parse((await json(api("GET", `/v1/teams/${b.name}/members`, { bearer: b.admin.key }))).body);
    expect(bMembers.data.map((m) => [m.username, m.role]).sort()).toEqual(
      [[b.admin.username, "admin"], [b.annotator.username, "annotator"], [b.member.username, "member"]].sort(),
    );
  });

  it("a member of another team addressed in my team is a 404, not a leak", async () => {
    const a = await createTestTeam();
    const b = await createTestTeam();
    const response = await json(api("PATCH", `/v1/teams/${a.name}/members/${b.member.username}`, { bearer: a.admin.key, body: { role: "member" } }));
    expect(response).toEqual({ status: 404, body: { detail: `'${b.member.username}' is not a member of this team.` } });
  });
});
