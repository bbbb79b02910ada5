import { describe, expect, it } from "vitest";
import { addedMemberSchema, memberPage, teamPage, teamSchema } from "@/lib/auth/schemas";
import { api, json } from "./http";
import { createTestTeam, createTestUser, uniqueName } from "./factories";

describe("teams and members", () => {
  it("an instance admin creates a team and becomes its admin; others see only their teams", async () => {
    const operator = await createTestUser({ admin: true });
    const name = uniqueName("research");
    const created = await json(api("POST", "/v1/teams", { bearer: operator.key, body: { name } }));
    expect(created.status).toBe(201);
    expect(teamSchema.parse(created.body)).toMatchObject({ name, role: "admin", personal: false });
    const again = await json(api("POST", "/v1/teams", { bearer: operator.key, body: { name } }));
    expect(again.status).toBe(409);
    const outsider = await createTestUser();
    const teams = teamPage.parse((await json(api("GET", "/v1/teams", { bearer: outsider.key }))).body);
    expect(teams.data.map((t) => t.name)).toEqual([outsider.username]);
  });

  it("a team admin creates an annotator with a generated password, who can sign in with it", async () => {
    const team = await createTestTeam();
    const username = uniqueName("ann");
    const added = await json(api("POST", `/v1/teams/${team.name}/members`, { bearer: team.admin.key, body: { username, email: `${username}@example.test`, role: "annotator" } }));
    expect(added.status).toBe(201);
    const body = addedMemberSchema.parse(added.body);
    expect(body).toMatchObject({ created_user: true, member: { username, role: "annotator" } });
    expect(body.password).toEqual(expect.any(String));
    const signIn = await api("GET", `/v1/teams/${team.name}/projects`, { headers: { authorization: `Bearer x` } });
    expect(signIn.status).toBe(401);
    const { authenticatePassword } = await import("@/lib/auth/authenticate");
    expect(await authenticatePassword(username, body.password!, { address: null, via: "basic" })).toMatchObject({ user: { username } });
    // Annotators may not list members.
    const members = memberPage.parse((await json(api("GET", `/v1/teams/${team.name}/members`, { bearer: team.admin.key }))).body);
    expect(members.data.map((m) => m.role).sort()).toEqual(["admin", "annotator", "annotator", "member"]);
  });

  it("adding an unknown user without an email explains what to send", async () => {
    const team = await createTestTeam();
    const response = await json(api("POST", `/v1/teams/${team.name}/members`, { bearer: team.admin.key, body: { username: "ghost-user" } }));
    expect(response.status).toBe(404);
    expect(response.body.detail).toMatch(/send their email/);
  });

  it("a team keeps at least one admin, and a personal team keeps its owner", async () => {
    const team = await createTestTeam();
    const demote = await json(api("PATCH", `/v1/teams/${team.name}/members/${team.admin.username}`, { bearer: team.admin.key, body: { role: "member" } }));
    expect(demote.status).toBe(400);
    expect(demote.body.detail).toMatch(/at least one admin/);
    const promote = await json(api("PATCH", `/v1/teams/${team.name}/members/${team.member.username}`, { bearer: team.admin.key, body: { role: "admin" } }));
    expect(promote).toMatchObject({ status: 200, body: { username: team.member.username, role: "admin" } });
    const demoteNow = await json(api("PATCH", `/v1/teams/${team.name}/members/${team.admin.username}`, { bearer: team.admin.key, body: { role: "member" } }));
    expect(demoteNow.status).toBe(200);
    // The demoted former admin can no longer manage members.
    expect((await api("DELETE", `/v1/teams/${team.name}/members/${team.annotator.username}`, { bearer: team.admin.key })).status).toBe(403);
    const removed = await json(api("DELETE", `/v1/teams/${team.name}/members/${team.annotator.username}`, { bearer: team.member.key }));
    expect(removed).toEqual({ status: 200, body: { removed: true, username: team.annotator.username } });
    expect((await api("GET", `/v1/teams/${team.name}/projects`, { bearer: team.annotator.key })).status).toBe(404);

    const owner = await createTestUser();
    const guest = await createTestUser();
    await api("POST", `/v1/teams/${owner.username}/members`, { bearer: owner.key, body: { username: guest.username, role: "admin" } });
    const removeOwner = await json(api("DELETE", `/v1/teams/${owner.username}/members/${owner.username}`, { bearer: guest.key }));
    expect(removeOwner.status).toBe(400);
    expect(removeOwner.body.detail).toMatch(/personal team/);
  });
});
