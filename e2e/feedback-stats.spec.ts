import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_INIT_API_KEY } from "../playwright.config";
import { adminAuth, signInAsAdmin } from "./session";

// Stats → Feedback as a person uses it: feedback arrives through the API (as a scorer sends it),
// they chart a numeric payload key, watch a new score arrive without reloading, follow a row to
// its call, and download the buckets as CSV. The browser runs in Asia/Kolkata, a half-hour zone,
// which the tab takes as its default timezone.

test.use({ timezoneId: "Asia/Kolkata" });

const PROJECT = "e2e-feedback-stats";
const TYPE = "e2e.grader";
const basic = { authorization: `Basic ${Buffer.from(`api:${E2E_INIT_API_KEY}`).toString("base64")}` };

async function complete(request: APIRequestContext, project: string): Promise<string> {
  const response = await request.post("/v1/chat/completions", {
    headers: { ...adminAuth, "svc-project": project },
    data: { model: "anneal/tiny-chat", messages: [{ role: "user", content: "Grade me." }], max_tokens: 4, seed: 1 },
  });
  expect(response.status()).toBe(200);
  return response.headers()["anneal-call-id"];
}

async function grade(request: APIRequestContext, project: string, callId: string, payload: Record<string, unknown>) {
  const response = await request.post("/feedback/create", {
    headers: basic,
    data: { project_id: project, svc_ref: `svc:///${project}/call/${callId}`, feedback_type: TYPE, payload },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

test("a person charts a payload score, sees new feedback arrive, follows it to its call and exports the buckets", async ({ page, request }) => {
  test.setTimeout(90_000);
  const me = (await (await request.get("/v1/me", { headers: adminAuth })).json()) as { user: { username: string } };
  const team = me.user.username;
  const project = `${team}/${PROJECT}`;
  const first = await complete(request, project);
  const second = await complete(request, project);
  await grade(request, project, first, { score: 4, passed: true, label: "good" });
  // The project picker lists the workspace team's projects.
  expect((await request.put("/v1/me/workspace", { headers: adminAuth, data: { team, project: PROJECT } })).status()).toBe(200);

  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Stats", exact: true }).click();
  await expect(page.getByRole("tab", { name: "Usage" })).toHaveAttribute("aria-selected", "true");
  await page.getByRole("tab", { name: "Feedback" }).click();
  await expect(page).toHaveURL(/\/stats\?tab=feedback$/);
  await expect(page.getByRole("tab", { name: "Feedback" })).toHaveAttribute("aria-selected", "true");

  // Defaults: the workspace's project, the last 24 hours, automatic buckets, the browser's zone.
  await expect(page.getByLabel("Project", { exact: true })).toHaveValue(project);
  await expect(page.getByLabel("Time range")).toHaveValue("24h");
  await expect(page.getByLabel("Granularity")).toHaveValue("");
  // (Chromium names Kolkata by its older IANA name, Asia/Calcutta.)
  const browserZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  expect(browserZone).toMatch(/^Asia\/(Kolkata|Calcutta)$/);
  await expect(page.getByLabel("Timezone")).toHaveValue(browserZone);
  await page.getByLabel("Feedback type").fill(TYPE);
  await page.getByLabel("Feedback type").press("Enter");
  await page.getByLabel("Granularity").selectOption({ label: "1 day" });
  await expect(page).toHaveURL(/feedback_type=e2e\.grader.*granularity=86400/);

  // A metric on the numeric key: its kind comes from the payload keys the project's feedback has.
  await page.getByRole("button", { name: "Add metric" }).click();
  const metric = page.getByRole("group", { name: "Metric 1" });
  await metric.getByLabel("Payload key").selectOption("score");
  await expect(metric.getByLabel("Value type")).toHaveValue("numeric");
  await expect(metric.getByRole("checkbox", { name: "avg" })).toBeChecked();
  const chart = page.getByRole("img", { name: "score per bucket" });
  await expect(chart.locator(".recharts-line-dot").first()).toBeVisible();
  const window = page.getByRole("region", { name: "Window stats of score" });
  await expect(window).toContainText("avg4");
  await expect(page.getByRole("region", { name: "Feedback rows in the window" })).toContainText("1");
  const rows = page.getByTestId("feedback-stats-row");
  await expect(rows).toHaveCount(1);

  // New feedback arrives: the tab reads it on its own (every 10 s), no reload.
  const newest = await grade(request, project, second, { score: 2, passed: false, label: "bad" });
  await expect(page.getByRole("region", { name: "Feedback rows in the window" })).toContainText("2", { timeout: 15_000 });
  await expect(window).toContainText("avg3");
  await expect(window).toContainText("min2");
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute("data-feedback-id", newest); // newest first
  await expect(rows.first().getByRole("cell").nth(2)).toHaveText("2");

  // The buckets as CSV: a header of the metric's keys, and the day holding both scores.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const csv = await readFile((await (await download).path())!, "utf8");
  const [header, ...lines] = csv.trimEnd().split("\r\n");
  expect(header).toBe("timestamp,count,avg_score,min_score,max_score,p50_score,p95_score");
  expect((await download).suggestedFilename()).toMatch(/^feedback-stats-.*\.csv$/);
  expect(lines.length).toBeGreaterThanOrEqual(1);
  for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z,\d+,/);
  // A day bucket starts at Kolkata's midnight: 18:30 UTC.
  expect(lines.find((line) => line.includes(",2,3,2,4,"))).toMatch(/^\d{4}-\d\d-\d\dT18:30:00(\.000)?Z,2,3,2,4,/);

  // A row leads to the call it judges.
  await rows.first().getByRole("link", { name: `Call ${second}` }).click();
  await expect(page).toHaveURL(new RegExp(`/calls/${second}$`));
});
