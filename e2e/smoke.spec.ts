import { expect, test } from "@playwright/test";
import { E2E_ADMIN, E2E_INIT_API_KEY } from "../playwright.config";
import { signInAsAdmin } from "./session";

// The app as a fresh install: started by npm start with its embedded defaults.

test("health and system check answer on a fresh install", async ({ request }) => {
  const health = await request.get("/v1/health");
  expect(health.status()).toBe(200);
  expect(await health.json()).toEqual({ status: "ok" });
  const check = await request.get("/v1/system-check");
  expect(check.status()).toBe(200);
  expect(await check.json()).toMatchObject({ api: true, database: true, engine: { success: true } });
});

test("the init API key authenticates; no credentials is a JSON 401, never a redirect", async ({ request }) => {
  const me = await request.get("/v1/me", { headers: { authorization: `Bearer ${E2E_INIT_API_KEY}` } });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ user: { email: E2E_ADMIN.email, is_admin: true } });
  const anonymous = await request.get("/v1/me", { maxRedirects: 0 });
  expect(anonymous.status()).toBe(401);
  expect(anonymous.headers()["content-type"]).toContain("application/json");
});

test("a streamed completion tells clients how long an idle connection stays open", async ({ request }) => {
  // Node's default 5 s equals common clients' own expiry (httpx), a race that resets requests.
  const res = await request.post("/v1/chat/completions", {
    headers: { authorization: `Bearer ${E2E_INIT_API_KEY}` },
    data: { messages: [{ role: "user", content: "Hi" }], max_tokens: 2, stream: true },
  });
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("text/event-stream");
  expect(res.headers()["keep-alive"]).toBe("timeout=75");
  expect(await res.text()).toContain("data: [DONE]");
});

test("the engine's refusals keep their status through npm start (a prompt longer than the context is a 400)", async ({ request }) => {
  // The engine thread's client is created by npm start's own scripts, the route runs in Next's
  // bundle: two copies of lib/, and the engine's 400 must not become the route wrapper's 500.
  const res = await request.post("/v1/chat/completions", {
    headers: { authorization: `Bearer ${E2E_INIT_API_KEY}` },
    data: { messages: [{ role: "user", content: "word ".repeat(2000) }] },
  });
  expect(res.status()).toBe(400);
  expect((await res.json()).detail).toMatch(/context length is only \d+ tokens/);
});

test("the login page renders and rejects a wrong password", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { name: "Sign in to Anneal" })).toBeVisible();
  await page.getByLabel("Username or email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator("form").getByRole("alert")).toHaveText("Wrong username, email or password.");
});

test("the admin signs in with the keyboard and lands in the console", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(E2E_ADMIN.username);
  await page.keyboard.press("Tab");
  await page.keyboard.type(E2E_ADMIN.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/playground$/);
  await expect(page.getByRole("heading", { name: "Playground", level: 1 })).toBeVisible();
  // The console's cookie session reaches the API the same way programmatic clients do.
  const me = await page.request.get("/v1/me");
  expect(await me.json()).toMatchObject({ auth: "session", user: { username: E2E_ADMIN.username } });
});

test("an unknown console address says so and offers the way back, and no page asks for a file that is not there", async ({ page }) => {
  const missing: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404 && response.request().resourceType() !== "document") missing.push(response.url());
  });
  await signInAsAdmin(page);
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the console" }).click();
  await expect(page).not.toHaveURL(/no-such-page/);
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  expect(missing).toEqual([]);
});
