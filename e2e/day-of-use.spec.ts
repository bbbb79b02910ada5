import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_INIT_API_KEY } from "../playwright.config";
import { adminAuth, signInAsAdmin } from "./session";

// The console after a day of use (issue 29 items 5, 6, 9), as people do it: pages that load
// without a React error whatever the clock and zone, an API reference to read and filter that fetches nothing from
// elsewhere, a curl example that stays on screen, a corrected reply that is only
// saved when it corrects something, numbers by buttons, annotation specs charted by name, and the
// call log's Feedback column showing values.

const PROJECT = "e2e-day";
const basic = { authorization: `Basic ${Buffer.from(`api:${E2E_INIT_API_KEY}`).toString("base64")}` };

test.use({ timezoneId: "Asia/Kathmandu", viewport: { width: 1100, height: 800 } }); // +05:45: not whole hours

async function teamOf(request: APIRequestContext): Promise<string> {
  return ((await (await request.get("/v1/me", { headers: adminAuth })).json()) as { user: { username: string } }).user.username;
}

async function complete(request: APIRequestContext, project: string, content: string): Promise<{ id: string; reply: string }> {
  const response = await request.post("/v1/chat/completions", {
    headers: { ...adminAuth, "svc-project": project },
    data: { model: "anneal/tiny-chat", messages: [{ role: "user", content }], max_tokens: 8, seed: 3 },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { choices: { message: { content: string } }[] };
  return { id: response.headers()["anneal-call-id"], reply: body.choices[0].message.content };
}

async function spec(request: APIRequestContext, team: string, body: Record<string, unknown>): Promise<string> {
  const response = await request.post(`/v1/teams/${team}/projects/${PROJECT}/annotation-specs`, { headers: adminAuth, data: body });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { ref: string }).ref;
}

/** Console errors (a hydration mismatch is one: React #418) and requests to any origin but the server's. */
function watch(page: Page, serverOrigin: string) {
  const errors: string[] = [];
  const elsewhere: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (["data:", "blob:"].includes(url.protocol)) return; // read in the page, not fetched
    if (url.origin !== serverOrigin) elsewhere.push(request.url());
  });
  return { errors, elsewhere };
}

test("the call log and Stats → Feedback load without a React error, at a fixed clock in a +05:45 zone, again and again", async ({ page, request, baseURL }) => {
  test.setTimeout(180_000);
  const team = await teamOf(request);
  await complete(request, `${team}/${PROJECT}`, "Hello there.");
  expect((await request.put("/v1/me/workspace", { headers: adminAuth, data: { team, project: PROJECT } })).status()).toBe(200);
  await page.clock.setFixedTime(new Date());
  await signInAsAdmin(page);
  const { errors } = watch(page, new URL(baseURL!).origin);
  // A slower CPU widens the window in which a late-hydrating part of the page could see data the shell fetched.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  for (let i = 0; i < 7; i++) {
    await page.goto("/calls");
    await expect(page.getByRole("heading", { name: "Calls", level: 1 })).toBeVisible();
    await expect(page.getByLabel("Filter by project").locator("option", { hasText: `${team}/${PROJECT}` })).toBeAttached({ timeout: 30_000 });
    await page.goto("/stats?tab=feedback");
    await expect(page.getByRole("tab", { name: "Feedback", selected: true })).toBeVisible();
    await expect(page.getByText("Feedback per bucket")).toBeVisible({ timeout: 30_000 });
  }
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  expect(errors).toEqual([]);
});

test("the API reference renders the OpenAPI document, finds an endpoint by its path, and fetches nothing from elsewhere", async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page);
  const { errors, elsewhere } = watch(page, new URL(baseURL!).origin);
  await page.getByRole("complementary").getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page.getByRole("link", { name: "/v1/openapi.json" })).toHaveAttribute("href", "/v1/openapi.json"); // the raw document
  const reference = page.getByTestId("api-reference");
  const paths = reference.locator(".opblock-summary-path[data-path]");
  const health = reference.locator('.opblock-summary-path[data-path="/v1/health"]');
  await expect(health).toHaveCount(1, { timeout: 60_000 }); // a loaded machine takes a while over the 60 routes' schemas

  await reference.getByPlaceholder("Filter by tag or path").fill("chat/completions");
  await expect(health).toHaveCount(0);
  const shown = await paths.evaluateAll((spans) => spans.map((span) => span.getAttribute("data-path")));
  expect(shown).toContain("/v1/chat/completions");
  expect(shown.every((path) => path!.includes("chat/completions"))).toBe(true);
  // Opened, the operation shows what it takes: its request body's fields.
  await reference.locator('.opblock-summary-path[data-path="/v1/chat/completions"]').click();
  await expect(reference.getByText("Request body").first()).toBeVisible({ timeout: 30_000 });
  await expect(reference.getByText("messages").first()).toBeVisible();

  expect(errors).toEqual([]);
  expect(elsewhere).toEqual([]);
});

test("the Models page's curl example stays on screen", async ({ page, request }) => {
  const team = await teamOf(request);
  await complete(request, `${team}/e2e-day-empty`, "A project with no models."); // a call makes the project
  expect((await request.put("/v1/me/workspace", { headers: adminAuth, data: { team, project: "e2e-day-empty" } })).status()).toBe(200);
  await page.setViewportSize({ width: 800, height: 800 });
  await signInAsAdmin(page);
  await page.goto("/models");
  const snippet = page.getByLabel("Create a model from code");
  await expect(snippet).toBeVisible();
  const box = (await snippet.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(800);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
});

test("a corrected reply left as the model's reply is not saved as a correction; an edited one is", async ({ page, request }) => {
  const team = await teamOf(request);
  const project = `${team}/${PROJECT}`;
  const call = await complete(request, project, "What is 3 + 4?");
  const fixRef = await spec(request, team, { name: "fix", type: "corrected_reply" });
  // From code, an unchanged one (whitespace aside) is refused with what to do.
  const refused = await request.post("/feedback/create", {
    headers: basic,
    data: { project_id: project, weave_ref: `svc:///${project}/call/${call.id}`, feedback_type: "wandb.annotation.fix", payload: { value: ` ${call.reply}\n` }, annotation_ref: fixRef },
  });
  expect(refused.status()).toBe(422);

  await signInAsAdmin(page);
  await page.goto(`/calls/${call.id}`);
  const field = page.locator('[data-testid="annotation-field"][data-spec="fix"]');
  await expect(field.getByRole("textbox")).toHaveValue(call.reply);
  await expect(field.getByText("an unchanged one is not saved")).toBeVisible();
  await expect(field.getByRole("button", { name: "Save" })).toBeDisabled();
  await field.getByRole("textbox").fill("7");
  await field.getByRole("button", { name: "Save" }).click();
  await expect(page.locator('[data-testid="feedback-row"][data-type="wandb.annotation.fix"]')).toContainText("7");
});

test("numbers by buttons, required specs first, an annotation spec charted by name, and values in the call log", async ({ page, request }) => {
  test.setTimeout(120_000);
  const team = await teamOf(request);
  const project = `${team}/${PROJECT}`;
  const call = await complete(request, project, "Rate me.");
  await spec(request, team, { name: "stars", type: "numeric", min: 1, max: 5, integer: true });
  await spec(request, team, { name: "remark", type: "text" });
  expect((await request.put("/v1/me/workspace", { headers: adminAuth, data: { team, project: PROJECT } })).status()).toBe(200);
  await signInAsAdmin(page);

  // The queue form: an optional spec ticked first still comes after the required one.
  await page.goto("/queues");
  await page.getByRole("button", { name: /new queue/i }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill("day-queue");
  await dialog.getByRole("checkbox", { name: /remark/ }).check();
  await dialog.getByLabel("remark: required or optional").selectOption("optional");
  await dialog.getByRole("checkbox", { name: /stars/ }).check();
  await expect(dialog.getByRole("list", { name: "Order in the form" }).getByRole("listitem")).toHaveText([/stars/, /remark/]);
  await dialog.getByRole("button", { name: "Move remark up" }).click();
  await expect(dialog.getByRole("list", { name: "Order in the form" }).getByRole("listitem")).toHaveText([/remark/, /stars/]);
  await dialog.getByRole("button", { name: "Move remark down" }).click();
  await dialog.getByRole("button", { name: "Create queue" }).click();
  await expect(dialog).toBeHidden();

  // A score of 4 from the call page's numeric field, then the call log shows it.
  const stars = await request.get(`/v1/teams/${team}/projects/${PROJECT}/annotation-specs/stars`, { headers: adminAuth });
  const created = await request.post("/feedback/create", {
    headers: basic,
    data: { project_id: project, weave_ref: `svc:///${project}/call/${call.id}`, feedback_type: "wandb.annotation.stars", payload: { value: 4 }, annotation_ref: ((await stars.json()) as { ref: string }).ref },
  });
  expect(created.status()).toBe(200);
  await page.goto(`/calls?project=${encodeURIComponent(project)}`);
  await expect(page.getByTestId("annotation-values").filter({ hasText: "stars" }).first()).toContainText("4");

  // Stats → Feedback: the spec by its name, not `wandb.annotation.stars` and `value` typed by hand.
  await page.goto("/stats?tab=feedback");
  await page.getByLabel("Annotation spec").selectOption("stars");
  await expect(page).toHaveURL(/feedback_type=wandb\.annotation\.stars/);
  await expect(page).toHaveURL(/metrics=.*value/);
});

test("an annotator scores by the buttons of a 1–5 field", async ({ page, request }) => {
  const team = await teamOf(request);
  const project = `${team}/${PROJECT}`;
  const call = await complete(request, project, "Score this one.");
  await spec(request, team, { name: "grade", type: "numeric", min: 1, max: 5, integer: true });
  const queue = await request.post("/annotation_queues", { headers: basic, data: { project, name: "grades", specs: [{ name: "grade" }] } });
  expect(queue.status(), await queue.text()).toBe(201);
  const { id } = (await queue.json()) as { id: string };
  expect((await request.post(`/annotation_queues/${id}/items`, { headers: basic, data: { call_ids: [call.id] } })).status()).toBe(200);
  await signInAsAdmin(page);
  await page.goto(`/annotate/${id}`);
  const field = page.locator('[data-testid="annotate-field"][data-spec="grade"]');
  await expect(field.getByRole("radio")).toHaveCount(5);
  await field.getByRole("radio", { name: /4/ }).click();
  await page.keyboard.press("Control+Enter");
  await expect.poll(async () => ((await (await request.post("/feedback/query", { headers: basic, data: { project_id: project, query: { $expr: { $eq: [{ $getField: "feedback_type" }, { $literal: "wandb.annotation.grade" }] } }, limit: 10 } })).json()) as { result: { payload: { value: unknown } }[] }).result.map((r) => r.payload.value)).toEqual([4]);
});
