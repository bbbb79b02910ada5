import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi";
import { api, json } from "./http";
import { createTestUser, createTestWorkerKey, type TestUser } from "./factories";
import { fuzzVariants, limitMessage, type Variant } from "./fuzz/variants";

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
    // …and the OpenAPI document says so on every body.
    const { paths } = openApiDocument() as { paths: Record<string, Record<string, { requestBody?: { description: string; content: Record<string, unknown> } }>> };
    // Bodies with fields (JSON, multipart); an uploaded file's bytes have none.
    const hasFields = (body: { content: Record<string, unknown> }) => "application/json" in body.content || "multipart/form-data" in body.content;
    const bodies = Object.values(paths).flatMap((methods) => Object.values(methods).flatMap((op) => (op.requestBody && hasFields(op.requestBody) ? [op.requestBody] : [])));
    expect(bodies.length).toBeGreaterThan(10);
    for (const body of bodies) expect(body.description).toMatch(/^Unknown fields are accepted and ignored/);
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

// Every operation of the OpenAPI document, sent malformed variants (fuzz/variants.ts): each answer
// is the contract's status and body, within a few seconds.
describe("fuzz: malformed variants of every operation", () => {
  const ANSWER_WITHIN_MS = 5000;

  async function check(variant: Variant): Promise<string | undefined> {
    const started = performance.now();
    const response = await api(variant.method, variant.url, variant.options);
    const elapsed = performance.now() - started;
    const text = await response.text();
    const problems: string[] = [];
    if (elapsed > ANSWER_WITHIN_MS) problems.push(`answered in ${elapsed.toFixed(0)} ms`);
    if (response.status !== variant.expect.status) problems.push(`status ${response.status}, expected ${variant.expect.status}`);
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return `${variant.name}: not JSON: ${text.slice(0, 200)}`;
    }
    const expected = variant.expect;
    if (expected.status === 422) {
      const detail = body.detail;
      const wellFormed = Array.isArray(detail) && detail.every((d: any) => Array.isArray(d.loc) && d.loc.every((l: unknown) => typeof l === "string") && typeof d.msg === "string" && typeof d.type === "string");
      if (!wellFormed) problems.push("detail is not a list of {loc, msg, type}");
      else if (!detail.some((d: any) => JSON.stringify(d.loc) === JSON.stringify(expected.loc) && (!expected.type || d.type === expected.type))) {
        problems.push(`no issue at ${JSON.stringify(expected.loc)}${expected.type ? ` of type ${expected.type}` : ""}`);
      }
      if (variant.operation.openaiErrors && typeof body.error?.message !== "string") problems.push("no OpenAI error envelope");
    } else if (expected.status === 413) {
      if (body.detail !== limitMessage(expected.limit)) problems.push(`413 detail ${JSON.stringify(body.detail)}`);
    } else {
      if (typeof body.detail !== "string") problems.push("401 without a detail message");
      if (!response.headers.get("www-authenticate")) problems.push("401 without WWW-Authenticate");
    }
    return problems.length ? `${variant.name}: ${problems.join("; ")} — ${text.slice(0, 300)}` : undefined;
  }

  it("answers each variant as the contract says, within a few seconds", async () => {
    const admin = await createTestUser({ admin: true });
    const variants = fuzzVariants({ key: admin.key, workerKey: (await createTestWorkerKey()).key });
    const failures: string[] = [];
    for (const variant of variants) {
      const failure = await check(variant);
      if (failure) failures.push(failure);
    }
    const operations = new Set(variants.map((v) => v.operation.id)).size;
    console.log(`fuzz: ${variants.length} requests to ${operations} operations, ${failures.length} answered outside the contract`);
    expect(failures).toEqual([]);
  });
});
