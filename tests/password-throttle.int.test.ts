import { afterEach, describe, expect, it, vi } from "vitest";
import { authenticate } from "@/lib/auth/authenticate";
import { PEER_ADDRESS_HEADER } from "@/lib/auth/client-address";
import { getAuthOptions } from "@/lib/auth/next-auth";
import { signInErrorMessage } from "@/lib/auth/sign-in-error";
import { AppError } from "@/lib/contract/errors";
import { errorResponse } from "@/lib/http/handle";
import { api, BASE_URL } from "./http";
import { createTestUser, uniqueName } from "./factories";

// Password guessing is throttled per account and per client address (lib/auth/password-attempts.ts):
// 5 free failures per account (20 per address), then 1 s, 2 s, 4 s … before the next attempt, on
// every path that checks a password, counted across web processes. API keys are never throttled.

const ACCOUNT_FREE_FAILURES = 5;
const ADDRESS_FREE_FAILURES = 20;

function basic(login: string, password: string, address?: string): Request {
  const headers: Record<string, string> = { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString("base64")}` };
  if (address) headers[PEER_ADDRESS_HEADER] = address;
  return new Request(`${BASE_URL}/feedback/stats`, { method: "POST", headers });
}

/** The HTTP answer a route gives for this Basic request's authentication. */
async function basicAnswer(request: Request): Promise<{ status: number; retryAfter: string | null; detail?: string }> {
  try {
    await authenticate(request, "basic");
    return { status: 200, retryAfter: null };
  } catch (error) {
    const response = errorResponse(error, {}, "test");
    return { status: response.status, retryAfter: response.headers.get("retry-after"), detail: (await response.json()).detail };
  }
}

afterEach(() => {
  vi.unstubAllEnvs();
});

const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 50));

describe("Basic username:password", () => {
  it("after 5 wrong passwords, even the right one waits (429, Retry-After), and the wait grows", async () => {
    const user = await createTestUser();
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) expect((await basicAnswer(basic(user.username, `wrong-${i}`))).status).toBe(401);
    const refused = await basicAnswer(basic(user.username, "wrong-again"));
    expect(refused).toEqual({ status: 429, retryAfter: "1", detail: "Too many failed password attempts: try again in 1 s." });
    // The right password during the wait is refused too, or guessing would simply go on.
    expect((await basicAnswer(basic(user.email, user.password))).status).toBe(429);

    await sleep(1);
    expect((await basicAnswer(basic(user.username, "wrong-after-wait"))).status).toBe(401);
    expect(await basicAnswer(basic(user.username, user.password))).toMatchObject({ status: 429, retryAfter: "2" });
    await sleep(2);
    expect((await basicAnswer(basic(user.username, user.password))).status).toBe(200);
    // The right password forgot the failures: five free ones again.
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) expect((await basicAnswer(basic(user.username, `wrong-${i}`))).status).toBe(401);
  });

  it("API keys and other accounts are unaffected by an account's wait", async () => {
    const [user, other] = [await createTestUser(), await createTestUser()];
    for (let i = 0; i <= ACCOUNT_FREE_FAILURES; i++) await basicAnswer(basic(user.username, `wrong-${i}`));
    expect((await basicAnswer(basic(user.username, user.password))).status).toBe(429);
    expect((await basicAnswer(basic("api", user.key))).status).toBe(200);
    expect((await api("GET", "/v1/me", { bearer: user.key })).status).toBe(200);
    expect((await basicAnswer(basic(other.username, other.password))).status).toBe(200);
  });

  it("parallel guesses get only the free failures checked", async () => {
    const user = await createTestUser();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => basicAnswer(basic(user.username, `wrong-${i}`))));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(ACCOUNT_FREE_FAILURES);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - ACCOUNT_FREE_FAILURES);
  });

  it("an unknown login is throttled like a real one (a 429 does not tell which accounts exist)", async () => {
    const login = uniqueName("nobody");
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) expect((await basicAnswer(basic(login, "x"))).status).toBe(401);
    expect((await basicAnswer(basic(login, "x"))).status).toBe(429);
  });

  it("one address trying many accounts waits after 20 failures; other addresses do not", async () => {
    const user = await createTestUser();
    const attacker = "203.0.113.7";
    for (let i = 0; i < ADDRESS_FREE_FAILURES; i++) {
      expect((await basicAnswer(basic(uniqueName("sprayed"), "Summer2024!", attacker))).status).toBe(401);
    }
    expect((await basicAnswer(basic(uniqueName("sprayed"), "Summer2024!", attacker))).status).toBe(429);
    expect((await basicAnswer(basic(user.username, user.password, attacker))).status).toBe(429);
    expect((await basicAnswer(basic(user.username, user.password, "198.51.100.20"))).status).toBe(200);
  });

  it("each failure and the first refusal of a wait are logged as JSON lines", async () => {
    const user = await createTestUser();
    const lines: string[] = [];
    vi.stubEnv("ANNEAL_LOG_LEVEL", "warn");
    const write = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => (lines.push(String(chunk)), true));
    for (let i = 0; i < ACCOUNT_FREE_FAILURES + 3; i++) await basicAnswer(basic(user.username, "wrong", "192.0.2.44"));
    write.mockRestore();
    const entries = lines.map((line) => JSON.parse(line)).filter((e) => e.user_id === user.principal.user.id);
    expect(entries.map((e) => e.msg)).toEqual([...Array(ACCOUNT_FREE_FAILURES).fill("password attempt failed"), "password attempts refused until the wait is over"]);
    expect(entries[ACCOUNT_FREE_FAILURES - 1]).toMatchObject({ level: "warn", address: "192.0.2.44", via: "basic", account_failures: 5, next_attempt_in_ms: 1000 });
  });
});

describe("several web processes", () => {
  it("count one account's failures together: guesses split between two app instances wait after 5 in all", async () => {
    // A second copy of the modules is a second app instance: its own throttle memory, the same database.
    vi.resetModules();
    const second = await import("@/lib/auth/authenticate");
    expect(second.authenticate).not.toBe(authenticate);
    const secondAnswer = async (request: Request) => {
      try {
        await second.authenticate(request, "basic");
        return 200;
      } catch (error) {
        return errorResponse(error, {}, "test").status;
      }
    };
    const user = await createTestUser();
    for (let i = 0; i < 3; i++) expect((await basicAnswer(basic(user.username, `wrong-${i}`))).status).toBe(401);
    for (let i = 3; i < ACCOUNT_FREE_FAILURES; i++) expect(await secondAnswer(basic(user.username, `wrong-${i}`))).toBe(401);
    expect(await secondAnswer(basic(user.username, "wrong-again"))).toBe(429);
    expect((await basicAnswer(basic(user.username, user.password))).status).toBe(429);

    // The right password, once the wait is over, forgets the failures in every instance.
    await sleep(1);
    expect(await secondAnswer(basic(user.username, user.password))).toBe(200);
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) expect((await basicAnswer(basic(user.username, `wrong-${i}`))).status).toBe(401);
  });
});

describe("PUT /v1/me/password", () => {
  it("after 5 wrong current passwords, waits before checking another, even the right one", async () => {
    const user = await createTestUser();
    const change = (current: string) => api("PUT", "/v1/me/password", { bearer: user.key, body: { current_password: current, new_password: "a-new-password" } });
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) expect((await change(`wrong-${i}`)).status).toBe(400);
    const refused = await change(user.password);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    await sleep(1);
    expect((await change(user.password)).status).toBe(200);
  });
});

describe("console sign-in (next-auth credentials)", () => {
  async function authorize(login: string, password: string) {
    const provider = (await getAuthOptions()).providers[0] as unknown as { options: { authorize: (c: unknown, r: unknown) => Promise<unknown> } };
    return provider.options.authorize({ login, password }, { headers: {}, body: {}, query: {}, method: "POST" });
  }

  it("after 5 wrong passwords, the form is told how long to wait; afterwards the right password signs in", async () => {
    const user = await createTestUser();
    for (let i = 0; i < ACCOUNT_FREE_FAILURES; i++) expect(await authorize(user.username, `wrong-${i}`)).toBeNull();
    const refusal = await authorize(user.username, user.password).then(
      () => null,
      (error: Error) => error,
    );
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal).not.toBeInstanceOf(AppError);
    expect(signInErrorMessage(refusal!.message)).toBe("Too many failed attempts: try again in 1 s.");
    expect(signInErrorMessage("CredentialsSignin")).toBe("Wrong username, email or password.");
    await sleep(1);
    expect(await authorize(user.username, user.password)).toMatchObject({ id: user.principal.user.id });
  });
});
