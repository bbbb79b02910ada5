import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Page } from "@playwright/test";
import { E2E_INIT_API_KEY } from "../playwright.config";
import { adminAuth, signInAsAdmin } from "./session";

// The playground as an engineer uses it: pick the tiny model, chat with a streamed answer, read
// its logprobs, compare two parameter sets side by side, copy the request as code and run that
// code for real; then find the calls on the Stats page. The tiny model has a 128-token context:
// prompts stay short and max tokens small.

const run = promisify(execFile);
const SNIPPET_DIR = path.resolve(".test-results", "snippets");

const params = (page: Page) => page.getByRole("complementary", { name: "Parameters" });

test("a user picks the tiny model, chats with streaming, compares two parameter sets and runs the copied snippet", async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signInAsAdmin(page);

  // Pick the model and keep answers short.
  await params(page).getByLabel("Model").selectOption("anneal/tiny-chat");
  await expect(params(page).getByLabel("Model")).toHaveValue("anneal/tiny-chat");
  await params(page).getByLabel("Max tokens").fill("16");
  await params(page).getByLabel("Seed").fill("7");

  // Chat: Ctrl+Enter sends; the answer streams over SSE.
  await page.getByLabel("Message", { exact: true }).fill("What is 12 + 7?");
  const streamed = page.waitForResponse((r) => r.url().endsWith("/v1/chat/completions") && r.request().method() === "POST");
  await page.keyboard.press("Control+Enter");
  const response = await streamed;
  expect(response.headers()["content-type"]).toContain("text/event-stream");
  expect(response.headers()["anneal-call-id"]).toBeTruthy();
  expect(response.request().postDataJSON()).toMatchObject({ model: "anneal/tiny-chat", max_tokens: 16, seed: 7, stream: true, logprobs: true });
  const answer = page.getByTestId("message-assistant").first();
  await expect(answer).toBeVisible();
  await expect(answer.getByTestId("run-usage")).toHaveText(/\d+ prompt \+ \d+ completion tokens/);
  await expect(answer.getByTestId("run-stats")).toContainText("TTFT");

  // The logprob view: each token a span; hovering one shows its alternatives.
  await page.getByRole("radio", { name: "Tokens" }).click();
  const firstToken = answer.locator("[data-token]").first();
  await firstToken.hover();
  const tooltip = page.getByRole("tooltip");
  await expect(tooltip).toContainText("%");
  await page.getByRole("radio", { name: "Text" }).click();

  // Invalid parameters are named before anything is sent.
  await params(page).getByLabel("Temperature", { exact: true }).fill("3");
  await expect(params(page).getByText("Between 0 and 2")).toBeVisible();
  await params(page).getByLabel("Temperature", { exact: true }).fill("0.7");

  // Compare: column B greedy with a shorter budget, both run on the same conversation.
  await page.getByRole("button", { name: "Compare" }).click();
  await params(page).getByRole("tab", { name: "B" }).click();
  await params(page).getByLabel("Temperature", { exact: true }).fill("0");
  await params(page).getByLabel("Max tokens").fill("8");
  const bodies: Record<string, unknown>[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/v1/chat/completions") && r.method() === "POST") bodies.push(r.postDataJSON() as Record<string, unknown>);
  });
  await page.getByLabel("Message", { exact: true }).fill("Uppercase: blue sky");
  await page.keyboard.press("Control+Enter");
  const columnA = page.getByTestId("column-A");
  const columnB = page.getByTestId("column-B");
  await expect(columnA.getByTestId("run-usage")).toHaveText(/completion tokens/);
  await expect(columnB.getByTestId("run-usage")).toHaveText(/completion tokens/);
  await expect(columnA).toContainText("T 0.7");
  await expect(columnB).toContainText("T 0 · max 8");
  expect(bodies).toHaveLength(2);
  expect(bodies.map((b) => b.temperature).sort()).toEqual([0, 0.7]);
  expect(bodies[0].messages).toEqual(bodies[1].messages);

  // Get code for column B's exact request; copy it, and run it.
  await page.getByRole("button", { name: "Get code" }).click();
  const dialog = page.getByRole("dialog", { name: "Get code" });
  await dialog.getByRole("radio", { name: "Column B" }).click();
  await dialog.getByRole("tab", { name: "TypeScript" }).click();
  await dialog.getByRole("button", { name: "Copy TypeScript" }).click();
  await expect(dialog.getByRole("button", { name: "Copied" })).toBeVisible();
  const typescript = await page.evaluate(() => navigator.clipboard.readText());
  expect(typescript).toBe(await dialog.getByTestId("snippet-code").innerText());
  expect(typescript).toContain("temperature: 0,");
  expect(typescript).toContain("max_tokens: 8,");

  mkdirSync(SNIPPET_DIR, { recursive: true });
  const file = path.join(SNIPPET_DIR, "playground-snippet.ts");
  writeFileSync(file, typescript);
  const env = { ...process.env, ANNEAL_API_KEY: E2E_INIT_API_KEY };
  const ts = await run(path.resolve("node_modules/.bin/tsx"), [file], { env, timeout: 60_000 });
  const usage = JSON.parse(ts.stdout.trim().split("\n").at(-1)!) as { completion_tokens: number; prompt_tokens: number };
  expect(usage.prompt_tokens).toBeGreaterThan(0);
  expect(usage.completion_tokens).toBeGreaterThan(0);

  await dialog.getByRole("tab", { name: "curl" }).click();
  await dialog.getByRole("button", { name: "Copy curl" }).click();
  const curl = await page.evaluate(() => navigator.clipboard.readText());
  expect(curl).toContain("$ANNEAL_API_KEY");
  const sse = await run("bash", ["-c", curl], { env, timeout: 60_000 });
  const chunks = sse.stdout.split("\n").filter((line) => line.startsWith("data: {")).map((line) => JSON.parse(line.slice(6)) as { object: string; choices: { finish_reason: string | null }[] });
  expect(sse.stdout.trim().endsWith("data: [DONE]")).toBe(true);
  expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
  expect(chunks.some((c) => c.choices[0]?.finish_reason)).toBe(true);
  await page.keyboard.press("Escape");

  // Keep B's answer: it joins the conversation.
  await columnB.getByRole("button", { name: "Continue with B" }).click();
  await expect(page.getByTestId("message-assistant")).toHaveCount(2);
});

test("the Stats page charts the playground's calls per project and lists them by model", async ({ page }) => {
  await signInAsAdmin(page);
  const project = (await page.getByText(/^Svc-Project: /).innerText()).replace("Svc-Project: ", "");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Stats" }).click();
  await expect(page.getByRole("heading", { name: "Stats", level: 1 })).toBeVisible();
  await expect(page.getByRole("img", { name: "Requests per day by project" })).toBeVisible();
  await expect(page.getByRole("img", { name: /tokens per day by project/ })).toBeVisible();
  // Other specs may chat with trained models in the same project: find the base model's row.
  const rows = page.getByRole("table", { name: "Usage by project and model" }).getByRole("row", { name: new RegExp(project) });
  await expect(rows.filter({ hasText: /anneal\/tiny-chat(?!-)/ })).toHaveCount(1);

  // A range with no calls says so.
  await page.getByLabel("From", { exact: true }).fill("2020-01-01");
  await page.getByLabel("To", { exact: true }).fill("2020-01-07");
  await expect(page.getByRole("heading", { name: "No chat completions in this range" })).toBeVisible();
});

test("a trained model's runs are recorded in its own project, whatever project the top bar shows", async ({ page, request }) => {
  const me = (await (await request.get("/v1/me", { headers: adminAuth })).json()) as { user: { username: string } };
  const project = `${me.user.username}/e2e-journey`;
  const created = await request.post("/v1/preview/models", { headers: adminAuth, data: { project: "e2e-journey", name: "hi-bot", base_model: "anneal/tiny-chat", return_existing: true } });
  expect(created.status()).toBe(200);
  await signInAsAdmin(page);
  await page.goto(`/playground?model=${encodeURIComponent(`${project}/hi-bot`)}`);
  await expect(page.getByTestId("recording-project")).toHaveText(`Svc-Project: ${project}`);
  await page.getByLabel("Message", { exact: true }).fill("Hi!");
  const sent = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions") && r.method() === "POST");
  await page.keyboard.press("Control+Enter");
  expect((await sent).headers()["svc-project"]).toBe(project);
  await expect(page.getByTestId("message-assistant").first().getByTestId("run-usage")).toHaveText(/completion tokens/);
  const calls = (await (await request.get(`/v1/calls?project=${encodeURIComponent(project)}`, { headers: adminAuth })).json()) as { data: { model: string }[] };
  expect(calls.data.map((c) => c.model)).toContain(`${project}/hi-bot:step0`);
});

