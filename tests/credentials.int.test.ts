import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/authenticate";
import { getAuthSecret } from "@/lib/auth/secret";
import { api, BASE_URL, json } from "./http";
import { createTestUser, type TestUser } from "./factories";

// Basic auth (username/email + password, or api:<key>) and the console's session cookie.

let user: TestUser;
beforeAll(async () => {
  user = await createTestUser();
});

const basic = (login: string, password: string) =>
  new Request(`${BASE_URL}/feedback/stats`, {
    method: "POST",
    headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}` },
  });

async function sessionCookie(userId: string): Promise<string> {
  const token = await encode({ token: { sub: userId }, secret: await getAuthSecret() });
  return `next-auth.session-token=${token}`;
}

describe("Basic credentials", () => {
  it("a login or key with a NUL character is a 401, not a database error", async () => {
    for (const [login, password] of [[`${user.username}\0`, user.password], ["api", `${user.key}\0`], ["nul\0@example.test", "x"]]) {
      await expect(authenticate(basic(login, password), "basic")).rejects.toMatchObject({ status: 401 });
    }
  });

  it("accept username or email with the password, and api:<key>", async () => {
    for (const login of [user.username, user.email, user.email.toUpperCase()]) {
      const principal = await authenticate(basic(login, user.password), "basic");
      expect(principal).toMatchObject({ user: { id: user.principal.user.id }, via: "password" });
    }
    const viaKey = await authenticate(basic("api", user.key), "basic");
    expect(viaKey).toMatchObject({ user: { id: user.principal.user.id }, via: "api_key" });
  });

  it("reject a wrong password, an unknown user and a malformed header with 401", async () => {
    for (const request of [basic(user.username, "nope"), basic("nobody-here", "x"), basic("api", "not-a-key")]) {
      await expect(authenticate(request, "basic")).rejects.toMatchObject({ status: 401 });
    }
    const malformed = new Request(BASE_URL, { headers: { authorization: "Basic !!!" } });
    await expect(authenticate(malformed, "basic")).rejects.toMatchObject({ status: 401 });
  });

  it("a changed password stops working at once, despite the check cache", async () => {
    const other = await createTestUser();
    await authenticate(basic(other.username, other.password), "basic"); // now cached
    const changed = await api("PUT", "/v1/me/password", { bearer: other.key, body: { current_password: other.password, new_password: "a-new-password" } });
    expect(changed.status).toBe(200);
    await expect(authenticate(basic(other.username, other.password), "basic")).rejects.toMatchObject({ status: 401 });
    await expect(authenticate(basic(other.username, "a-new-password"), "basic")).resolves.toBeTruthy();
  });

  it("changing a password needs the current one", async () => {
    const response = await json(api("PUT", "/v1/me/password", { bearer: user.key, body: { current_password: "wrong", new_password: "whatever-123" } }));
    expect(response).toEqual({ status: 400, body: { detail: "The current password is not correct." } });
  });
});

describe("session cookie", () => {
  it("authenticates /v1 routes for the console", async () => {
    const cookie = await sessionCookie(user.principal.user.id);
    const me = await json(api("GET", "/v1/me", { headers: { cookie } }));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { username: user.username }, auth: "session" });
  });

  it("refuses a state-changing request from another origin or without an Origin (CSRF)", async () => {
    const cookie = await sessionCookie(user.principal.user.id);
    const crossSite = await json(api("POST", "/v1/api-keys", { headers: { cookie, origin: "https://evil.example" }, body: { name: "x" } }));
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.detail).toMatch(/Cross-origin/);
    const noOrigin = await api("POST", "/v1/api-keys", { headers: { cookie }, body: { name: "x" } });
    expect(noOrigin.status).toBe(403);
    const sameOrigin = await api("POST", "/v1/api-keys", { headers: { cookie, origin: BASE_URL }, body: { name: "console" } });
    expect(sameOrigin.status).toBe(201);
  });

  it("a forged or expired session is 401", async () => {
    const forged = await encode({ token: { sub: user.principal.user.id }, secret: "not-the-instance-secret-at-all" });
    expect((await api("GET", "/v1/me", { headers: { cookie: `next-auth.session-token=${forged}` } })).status).toBe(401);
    const expired = await encode({ token: { sub: user.principal.user.id }, secret: await getAuthSecret(), maxAge: -120 }) // beyond the 15 s clock tolerance;
    expect((await api("GET", "/v1/me", { headers: { cookie: `next-auth.session-token=${expired}` } })).status).toBe(401);
  });
});
