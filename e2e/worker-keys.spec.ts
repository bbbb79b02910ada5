import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminAuth, signIn, signInAsAdmin } from "./session";

// Settings → Worker keys, as an instance admin uses it: a key for every team's jobs and one for a
// team's, each secret shown once with the commands that start a worker; a worker leasing with the
// key shows up on the page; revoking one refuses its worker at once. Someone who is not an admin
// has no such tab, and the page says it is the admins'.

const TEAM = "e2e-gpu-team";
const ENGINEER = { username: "e2e-keys-engineer", password: "engineer-pw-1234" };
const CAPABILITIES = { kinds: ["sft"], modes: ["lora"], bases: [], max_rank: 16 };

/** A worker checking in with the key (no bases: it is never handed a job). */
const lease = (program: APIRequestContext, key: string) =>
  program.post("/v1/workers/lease", { headers: { authorization: `Bearer ${key}` }, data: { instance: "e2e-gpu-1", version: 1, capabilities: CAPABILITIES } });

test("an admin creates an instance-wide and a team worker key, sees each secret once, and revokes one", async ({ page, playwright, baseURL }) => {
  const team = await page.request.post("/v1/teams", { headers: adminAuth, data: { name: TEAM } });
  expect(team.status(), await team.text()).toBe(201);
  await signInAsAdmin(page);
  await page.goto("/settings/api-keys");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Worker keys" }).click();
  await expect(page).toHaveURL(/\/settings\/worker-keys$/);

  // Instance-wide: the secret once, with the two commands that start a worker on this origin.
  await page.getByRole("button", { name: "Create worker key" }).first().click();
  const create = page.getByRole("dialog", { name: "Create worker key" });
  await create.getByLabel("Name").fill("e2e gpu pool");
  await expect(create.getByLabel("Scope")).toHaveValue("");
  await create.getByRole("button", { name: "Create key" }).click();
  const reveal = page.getByRole("dialog", { name: "Your new worker key" });
  const secret = await reveal.getByTestId("new-worker-key").inputValue();
  expect(secret).toMatch(/^awk-[0-9A-Za-z]{48}$/);
  await expect(reveal.getByTestId("node-worker-command")).toHaveText(`npm run worker -- --server ${baseURL} --key ${secret}`);
  await expect(reveal.getByTestId("python-worker-command")).toContainText(`anneal-worker serve --server ${baseURL} --key ${secret}`);
  await expect(reveal.getByRole("button", { name: "Copy key" })).toBeVisible();
  await page.keyboard.press("Escape");
  const table = page.getByRole("table", { name: "Worker keys" });
  const wide = table.getByRole("row", { name: /e2e gpu pool/ });
  await expect(wide).toContainText(secret.slice(0, 12));
  await expect(wide).toContainText("All teams");
  const lastSeen = wide.getByRole("cell").nth(4);
  await expect(lastSeen).toHaveText("—"); // no worker has used it
  await expect(wide).toContainText("None"); // online

  // One team's: picked from the admin's teams.
  await page.getByRole("button", { name: "Create worker key" }).first().click();
  await create.getByLabel("Name").fill("e2e team pool");
  await create.getByLabel("Scope").selectOption(TEAM);
  await create.getByRole("button", { name: "Create key" }).click();
  const teamSecret = await reveal.getByTestId("new-worker-key").inputValue();
  expect(teamSecret).toMatch(/^awk-/);
  await page.keyboard.press("Escape");
  await expect(table.getByRole("row", { name: /e2e team pool/ })).toContainText(TEAM);

  // A worker leases with the instance-wide key: the page shows it online, seen just now.
  const program = await playwright.request.newContext({ baseURL });
  expect((await lease(program, secret)).status()).toBe(200);
  await page.reload();
  await expect(wide).toContainText("1 online");
  await expect(lastSeen).toHaveText("just now");
  // Shown once: after a reload neither secret is anywhere on the page.
  const html = await page.content();
  expect(html).not.toContain(secret);
  expect(html).not.toContain(teamSecret);

  // Revoke: the confirmation says its leases expire at once; its worker is refused from then on.
  await wide.getByRole("button", { name: "Revoke e2e gpu pool" }).click();
  const confirm = page.getByRole("dialog", { name: /Revoke/ });
  await expect(confirm).toContainText("its leases expire at once");
  await expect(confirm).toContainText("1 worker online now");
  const revocation = page.waitForResponse((r) => r.request().method() === "DELETE" && r.url().includes("/v1/preview/worker-keys/"));
  await confirm.getByRole("button", { name: "Revoke key" }).click();
  expect((await revocation).status()).toBe(200);
  await expect(confirm).toBeHidden();
  await expect(wide).toHaveCount(0);
  await expect(table.getByRole("row", { name: /e2e team pool/ })).toBeVisible();
  expect((await lease(program, secret)).status()).toBe(401);
  await page.getByLabel("Show revoked").check();
  await expect(wide).toContainText("Revoked");
  await program.dispose();
});

test("someone who is not an instance admin has no Worker keys tab, and the page says it is the admins'", async ({ page }) => {
  const created = await page.request.post("/v1/users", { headers: adminAuth, data: { ...ENGINEER, email: `${ENGINEER.username}@e2e.test` } });
  expect(created.status(), await created.text()).toBe(201);
  await signIn(page, ENGINEER.username, ENGINEER.password);
  await expect(page).toHaveURL(/\/playground$/);
  await page.goto("/settings/api-keys");
  const tabs = page.getByRole("navigation", { name: "Settings" });
  await expect(tabs.getByRole("link", { name: "API keys" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Worker keys" })).toHaveCount(0);
  await page.goto("/settings/worker-keys");
  await expect(page.getByText("Admins only")).toBeVisible();
  await expect(page.getByRole("table", { name: "Worker keys" })).toHaveCount(0);
});
