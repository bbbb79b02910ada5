import { beforeAll, describe, expect, it } from "vitest";
import { api, json } from "./http";
import { createTestUser, type TestUser } from "./factories";

// Bad input gets a clear 4xx with the documented body, never a 500 and never a half-written row.

let user: TestUser;
beforeAll(async () => {
  user = await createTestUser();
});

describe("bad input", () => {
  it("malformed JSON is 422 json_invalid at ['body']", async () => {
    const { status, body } = await json(
      api("POST", "/v1/api-keys", { bearer: user.key, rawBody: '{"name": "x",', headers: { "content-type": "application/json" } }),
    );
    expect(status).toBe(422);
    expect(body.detail).toEqual([{ loc: ["body"], msg: expect.stringMatching(/^JSON decode error/), type: "json_invalid" }]);
  });

  it("a missing field, a wrong type and an out-of-range value each name their location", async () => {
    const missing = await json(api("POST", "/v1/api-keys", { bearer: user.key, body: {} }));
    expect(missing).toEqual({ status: 422, body: { detail: [{ loc: ["body", "name"], msg: "Field required", type: "missing" }] } });

    const wrongType = await json(api("POST", "/v1/api-keys", { bearer: user.key, body: { name: 42 } }));
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.detail).toEqual([{ loc: ["body", "name"], msg: expect.any(String), type: "string_type" }]);

    for (const limit of ["0", "101", "abc", "2.5"]) {
      const { status, body } = await json(api("GET", `/v1/api-keys?limit=${limit}`, { bearer: user.key }));
      expect(status).toBe(422);
      expect(body.detail[0].loc).toEqual(["query", "limit"]);
    }
    const order = await json(api("GET", "/v1/api-keys?order=sideways", { bearer: user.key }));
    expect(order.body.detail).toEqual([{ loc: ["query", "order"], msg: expect.any(String), type: "enum" }]);
  });

  it("an invalid enum value in the body and a bad path parameter are 422", async () => {
    const role = await json(api("POST", `/v1/teams/${user.username}/members`, { bearer: user.key, body: { username: "x", role: "owner" } }));
    expect(role.status).toBe(422);
    expect(role.body.detail).toEqual([{ loc: ["body", "role"], msg: expect.any(String), type: "enum" }]);
    const path = await json(api("DELETE", "/v1/api-keys/not-a-uuid", { bearer: user.key }));
    expect(path.status).toBe(422);
    expect(path.body.detail[0].loc).toEqual(["path", "key_id"]);
    const name = await json(api("GET", "/v1/teams/bad:name/projects", { bearer: user.key }));
    expect(name.body.detail[0]).toMatchObject({ loc: ["path", "team"], type: "string_pattern_mismatch" });
  });

  it("array indices in loc are decimal strings", async () => {
    // createApiKey has no arrays; the users body validates nested fields the same way.
    const admin = await createTestUser({ admin: true });
    const { body } = await json(api("POST", "/v1/users", { bearer: admin.key, body: { username: ["a"], email: "x" } }));
    expect(body.detail.map((d: { loc: string[] }) => d.loc)).toEqual([["body", "username"], ["body", "email"]]);
  });

  it("unknown fields are ignored and null means the default", async () => {
    const created = await json(api("POST", "/v1/api-keys", { bearer: user.key, body: { name: "extra", team: null, surprise: { a: 1 } } }));
    expect(created.status).toBe(201);
    expect(created.body.team).toBeNull();
    expect(created.body).not.toHaveProperty("surprise");
  });

  it("a body over the route's 1 MiB limit is 413, whether declared or streamed", async () => {
    const big = JSON.stringify({ name: "x", padding: "a".repeat(1024 * 1024) });
    const declared = await json(api("POST", "/v1/api-keys", { bearer: user.key, rawBody: big, headers: { "content-type": "application/json", "content-length": String(big.length) } }));
    expect(declared).toEqual({ status: 413, body: { detail: "Request body exceeds this route's limit of 1 MiB." } });
    const streamed = await json(api("POST", "/v1/api-keys", { bearer: user.key, rawBody: new TextEncoder().encode(big) }));
    expect(streamed.status).toBe(413);
  });

  it("a conflict is 409 with a message, and nothing is half-written", async () => {
    const admin = await createTestUser({ admin: true });
    const again = await json(api("POST", "/v1/users", { bearer: admin.key, body: { username: user.username, email: "new@example.test" } }));
    expect(again).toEqual({ status: 409, body: { detail: `Username '${user.username}' is taken.` } });
    const email = await json(api("POST", "/v1/users", { bearer: admin.key, body: { username: "fresh-name-1", email: user.email.toUpperCase() } }));
    expect(email.status).toBe(409);
    const teams = await json(api("GET", "/v1/teams", { bearer: admin.key }));
    expect(teams.body.data.map((t: { name: string }) => t.name)).not.toContain("fresh-name-1");
  });
});
