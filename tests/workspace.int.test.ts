import { describe, expect, it } from "vitest";
import { workspaceSchema } from "@/lib/auth/schemas";
import { api, json } from "./http";
import { createTestTeam, createTestUser } from "./factories";

describe("console workspace (GET/PUT /v1/me/workspace)", () => {
  it("a user with only a personal team lands in it, project 'default'", async () => {
    const solo = await createTestUser();
    const got = await json(api("GET", "/v1/me/workspace", { bearer: solo.key }));
    expect(got).toEqual({ status: 200, body: { team: solo.username, role: "admin", personal: true, project: "default" } });
  });

  it("an invited annotator lands in the team they annotate in, not their personal team", async () => {
    const team = await createTestTeam();
    const got = workspaceSchema.parse((await json(api("GET", "/v1/me/workspace", { bearer: team.annotator.key }))).body);
    expect(got).toEqual({ team: team.name, role: "annotator", personal: false, project: "default" });
  });

  it("remembers the selection per user, and the role follows the selected team", async () => {
    const team = await createTestTeam();
    const put = await json(api("PUT", "/v1/me/workspace", { bearer: team.member.key, body: { team: team.member.username, project: "evals" } }));
    expect(put).toEqual({ status: 200, body: { team: team.member.username, role: "admin", personal: true, project: "evals" } });
    const again = await json(api("GET", "/v1/me/workspace", { bearer: team.member.key }));
    expect(again.body).toEqual(put.body);
    // Another user's workspace is untouched.
    const admin = await json(api("GET", "/v1/me/workspace", { bearer: team.admin.key }));
    expect(admin.body).toMatchObject({ team: team.name, project: "default" });
    // The project defaults to 'default' when omitted.
    const back = await json(api("PUT", "/v1/me/workspace", { bearer: team.member.key, body: { team: team.name } }));
    expect(back.body).toEqual({ team: team.name, role: "member", personal: false, project: "default" });
  });

  it("another team is a 404 that leaves the selection as it was; a removed member falls back", async () => {
    const team = await createTestTeam();
    const other = await createTestTeam();
    const foreign = await json(api("PUT", "/v1/me/workspace", { bearer: team.member.key, body: { team: other.name } }));
    expect(foreign).toEqual({ status: 404, body: { detail: `Team '${other.name}' not found.` } });
    expect((await json(api("GET", "/v1/me/workspace", { bearer: team.member.key }))).body.team).toBe(team.name);

    await api("PUT", "/v1/me/workspace", { bearer: team.annotator.key, body: { team: team.name, project: "labels" } });
    await api("DELETE", `/v1/teams/${team.name}/members/${team.annotator.username}`, { bearer: team.admin.key });
    const fallback = await json(api("GET", "/v1/me/workspace", { bearer: team.annotator.key }));
    expect(fallback.body).toEqual({ team: team.annotator.username, role: "admin", personal: true, project: "default" });
  });

  it("rejects names that cannot be a team or project", async () => {
    const user = await createTestUser();
    const bad = await json(api("PUT", "/v1/me/workspace", { bearer: user.key, body: { team: "a/b", project: "x y" } }));
    expect(bad.status).toBe(422);
    expect(bad.body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([["body", "team"], ["body", "project"]]);
  });

  it("a team-scoped key sees and selects only its team", async () => {
    const team = await createTestTeam();
    const { body: scoped } = await json(api("POST", "/v1/api-keys", { bearer: team.member.key, body: { name: "scoped", team: team.name } }));
    expect((await json(api("GET", "/v1/me/workspace", { bearer: scoped.key }))).body.team).toBe(team.name);
    const personal = await json(api("PUT", "/v1/me/workspace", { bearer: scoped.key, body: { team: team.member.username } }));
    expect(personal.status).toBe(404);
  });
});
