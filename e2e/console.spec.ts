import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";
import { signIn } from "./session";

// The console as a team uses it: the admin signs in, creates an API key and uses it from code,
// revokes it; creates a team and an annotator, who signs in and sees only the annotation area.
// Serial: later journeys build on the team created earlier.
test.describe.configure({ mode: "serial" });

const TEAM = "labelers";
const ANNOTATOR = "ann-e2e";

test("console pages redirect to sign-in and back; API routes answer JSON 401s", async ({ page, request }) => {
  await page.goto("/settings/api-keys");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fsettings%2Fapi-keys$/);
  for (const path of ["/v1/api-keys", "/v1/me/workspace"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(401);
    expect(response.headers()["content-type"], path).toContain("application/json");
  }
  // The sign-in gate never touches the other API prefixes either.
  for (const path of ["/feedback/stats", "/annotation_queues/x", "/api/auth/session"]) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.headers().location ?? "", path).not.toContain("/login");
  }
  await page.getByLabel("Username or email").fill(E2E_ADMIN.email);
  await page.getByLabel("Password").fill(E2E_ADMIN.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByRole("heading", { name: "Your API keys" })).toBeVisible();
});

test("the admin creates an API key, uses it from code, and a revoked key stops working at once", async ({ page, playwright, baseURL }) => {
  await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/playground$/);
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);

  // Keyboard only: open the dialog, type a name, submit with Enter.
  await page.getByRole("button", { name: "Create API key" }).first().focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await expect(dialog.getByLabel("Name")).toBeFocused();
  await page.keyboard.type("e2e runner");
  await page.keyboard.press("Enter");
  const secret = await page.getByRole("dialog", { name: "Your new API key" }).getByTestId("new-api-key").inputValue();
  expect(secret).toMatch(/^ank_[0-9A-Za-z]{48}$/);
  await page.keyboard.press("Escape");
  const row = page.getByRole("row", { name: /e2e runner/ });
  await expect(row).toContainText(secret.slice(0, 12));
  await expect(row).toContainText("Never");

  // A program with nothing but the key: no cookies.
  const program = await playwright.request.newContext({ baseURL });
  const me = await program.get("/v1/me", { headers: { authorization: `Bearer ${secret}` } });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ auth: "api_key", user: { username: E2E_ADMIN.username } });
  const created = await program.post("/v1/api-keys", { headers: { authorization: `Bearer ${secret}` }, data: { name: "made by a program" } });
  expect(created.status()).toBe(201);

  // The console lists the key the program made, through the same API.
  await page.reload();
  await expect(page.getByRole("row", { name: /made by a program/ })).toBeVisible();

  await row.getByRole("button", { name: "Revoke e2e runner" }).click();
  // Wait for the revocation itself: while the dialog is open the table is hidden from the
  // accessibility tree, so "no such row" alone could pass before the request has been answered.
  const revocation = page.waitForResponse((r) => r.request().method() === "DELETE" && r.url().includes("/v1/api-keys/"));
  await page.getByRole("dialog", { name: /Revoke/ }).getByRole("button", { name: "Revoke key" }).click();
  expect((await revocation).status()).toBe(200);
  await expect(page.getByRole("dialog", { name: /Revoke/ })).toBeHidden();
  await expect(page.getByRole("row", { name: /e2e runner/ })).toHaveCount(0);
  const after = await program.get("/v1/me", { headers: { authorization: `Bearer ${secret}` } });
  expect(after.status()).toBe(401);
  expect(await after.json()).toEqual({ detail: "Invalid or revoked API key." });

  await page.getByLabel("Show revoked").check();
  await expect(page.getByRole("row", { name: /e2e runner/ })).toContainText("Revoked");
  await program.dispose();
});

test("the admin creates a team and an annotator, who sees only the annotation area", async ({ page, browser }) => {
  await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/playground$/);
  await page.goto("/settings/teams");
  await page.getByRole("button", { name: "Create team" }).click();
  await page.getByRole("dialog").getByLabel("Team name").fill(TEAM);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: TEAM, level: 2 })).toBeVisible();

  await page.getByRole("button", { name: "Add member" }).click();
  const add = page.getByRole("dialog", { name: `Add a member to ${TEAM}` });
  await add.getByLabel("Username").fill(ANNOTATOR);
  await add.getByLabel("Email").fill(`${ANNOTATOR}@e2e.test`);
  await add.getByLabel("Role").selectOption("annotator");
  await add.getByRole("button", { name: "Create and add" }).click();
  const password = (await page.getByTestId("new-user-password").textContent())!.trim();
  expect(password.length).toBeGreaterThanOrEqual(8);
  await page.keyboard.press("Escape");
  const member = page.getByRole("row", { name: new RegExp(ANNOTATOR) });
  await expect(member.getByLabel(`Role of ${ANNOTATOR}`)).toHaveValue("annotator");

  // The annotator, in their own browser session.
  const context = await browser.newContext();
  const annotator = await context.newPage();
  await signIn(annotator, ANNOTATOR, password);
  await expect(annotator).toHaveURL(/\/annotate$/);
  await expect(annotator.getByRole("heading", { name: "Annotate", level: 1 })).toBeVisible();
  const nav = annotator.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link")).toHaveText(["Annotate"]);
  for (const path of ["/playground", "/models", "/settings/api-keys", "/settings/teams", "/settings"]) {
    await annotator.goto(path);
    await expect(annotator, path).toHaveURL(/\/(annotate|settings\/account)$/);
  }
  // The API agrees: annotators cannot list the team's members.
  const members = await annotator.request.get(`/v1/teams/${TEAM}/members`);
  expect(members.status()).toBe(403);

  // They change their own password and sign in with the new one.
  await annotator.goto("/settings/account");
  await annotator.getByLabel("Current password").fill(password);
  await annotator.getByLabel("New password", { exact: true }).fill("annotator-new-pw");
  await annotator.getByLabel("Confirm new password").fill("annotator-new-pw");
  await annotator.keyboard.press("Enter");
  await expect(annotator.getByRole("status").filter({ hasText: "Password changed" })).toBeVisible();
  await annotator.getByRole("button", { name: /Account menu/ }).click();
  await annotator.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(annotator).toHaveURL(/\/login/);
  await signIn(annotator, ANNOTATOR, "annotator-new-pw");
  await expect(annotator).toHaveURL(/\/annotate$/);
  await context.close();

  // The admin demotes nobody by accident: the team keeps its last admin.
  await page.getByLabel(`Role of ${E2E_ADMIN.username}`).selectOption("member");
  await expect(page.getByRole("alert").filter({ hasText: /at least one admin/ })).toBeVisible();
});

test("the team switcher is remembered per user, across sessions", async ({ page, browser }) => {
  await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/playground$/);
  await page.getByRole("button", { name: /Switch team/ }).click();
  await page.getByRole("menuitemradio", { name: new RegExp(TEAM) }).click();
  await expect(page.getByRole("button", { name: `Team: ${TEAM}. Switch team` })).toBeVisible();
  await expect(page.getByText(`Svc-Project: ${TEAM}/default`, { exact: true })).toBeVisible();

  const other = await (await browser.newContext()).newPage();
  await signIn(other, E2E_ADMIN.username, E2E_ADMIN.password);
  await expect(other.getByRole("button", { name: `Team: ${TEAM}. Switch team` })).toBeVisible();
  await other.context().close();
});
