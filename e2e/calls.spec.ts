import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_INIT_API_KEY } from "../playwright.config";
import { adminAuth, signInAsAdmin } from "./session";

// Judging calls as a person does: open Calls, filter the log, open a call and read it, thumbs it
// down with a note, change one's mind to thumbs up (still one reaction row, the note kept), and
// score it on an annotation spec; then find it by its feedback. And thumbs on a playground answer.
// The feedback itself is checked through the feedback API, as a client would read it.

const PROJECT = "e2e-calls";
const basic = { authorization: `Basic ${Buffer.from(`api:${E2E_INIT_API_KEY}`).toString("base64")}` };

async function complete(request: APIRequestContext, project: string, content: string) {
  const response = await request.post("/v1/chat/completions", {
    headers: { ...adminAuth, "svc-project": project },
    data: { model: "anneal/tiny-chat", messages: [{ role: "user", content }], max_tokens: 8, seed: 3, logprobs: true, top_logprobs: 2 },
  });
  expect(response.status()).toBe(200);
  return response.headers()["anneal-call-id"];
}

interface FeedbackRow {
  id: string;
  feedback_type: string;
  payload: Record<string, unknown>;
  annotation_ref: string | null;
}

async function feedbackOn(request: APIRequestContext, project: string, ref: string): Promise<FeedbackRow[]> {
  const response = await request.post("/feedback/query", {
    headers: basic,
    data: { project_id: project, query: { $expr: { $eq: [{ $getField: "svc_ref" }, { $literal: ref }] } }, sort_by: [{ field: "created_at", direction: "asc" }], limit: 100 },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { result: FeedbackRow[] }).result;
}

test("a person filters the call log, reads a call, thumbs it down with a note, changes to thumbs up and scores it", async ({ page, request }) => {
  test.setTimeout(90_000);
  const me = (await (await request.get("/v1/me", { headers: adminAuth })).json()) as { user: { username: string } };
  const team = me.user.username;
  const project = `${team}/${PROJECT}`;
  const judged = await complete(request, project, "Tell me about the sea.");
  const other = await complete(request, project, "Count to three.");
  await complete(request, `${team}/default`, "Elsewhere.");
  const ref = `svc:///${project}/call/${judged}`;
  const spec = await request.post(`/v1/teams/${team}/projects/${PROJECT}/annotation-specs`, {
    headers: adminAuth,
    data: { name: "quality", type: "numeric", min: 1, max: 5, integer: true, description: "How good is the answer?" },
  });
  expect(spec.status()).toBe(201);
  const specRef = ((await spec.json()) as { ref: string }).ref;
  // The project filter lists the workspace team's projects.
  expect((await request.put("/v1/me/workspace", { headers: adminAuth, data: { team, project: PROJECT } })).status()).toBe(200);

  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Calls", exact: true }).click();
  await expect(page).toHaveURL(/\/calls$/);
  await expect(page.getByRole("heading", { name: "Calls", level: 1 })).toBeVisible();

  // Filter: the project, successful calls of the last hour, none with feedback yet.
  const rows = page.getByTestId("call-row");
  await page.getByLabel("Filter by project").selectOption(project);
  await page.getByLabel("Filter by status").selectOption("success");
  await page.getByLabel("Time range").selectOption("1h");
  for (const param of [`project=${encodeURIComponent(project)}`, "status=success", "range=1h"]) await expect(page).toHaveURL(new RegExp(`[?&]${param}(&|$)`));
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toHaveAttribute("data-call-id", other); // newest first
  await expect(rows.nth(1)).toContainText("Tell me about the sea.");
  await page.getByLabel("Filter by feedback", { exact: true }).selectOption("true");
  await expect(page.getByText("No calls match these filters.")).toBeVisible();
  await page.getByLabel("Filter by feedback", { exact: true }).selectOption("");
  await expect(rows).toHaveCount(2);

  // Open the call: the conversation, the answer (and its tokens), parameters, latency and usage.
  await rows.filter({ hasText: "Tell me about the sea." }).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/calls/${judged}$`));
  await expect(page.getByTestId("message").filter({ hasText: "Tell me about the sea." })).toHaveAttribute("data-role", "user");
  await expect(page.getByTestId("answer")).toHaveCount(1);
  await expect(page.getByTestId("call-usage")).toHaveText(/\d+ prompt \+ \d+ completion/);
  await expect(page.getByTestId("call-latency")).toHaveText(/\d+ ms|\d+\.\d s/);
  await expect(page.getByText("max_tokens", { exact: true })).toBeVisible();
  await page.getByRole("radio", { name: "Tokens" }).click();
  await expect(page.locator("[data-token]").first()).toBeVisible();
  await page.getByRole("radio", { name: "Text" }).click();

  // Thumbs down with a note.
  const down = page.getByRole("button", { name: "Thumbs down" });
  const up = page.getByRole("button", { name: "Thumbs up" });
  await down.click();
  await expect(down).toHaveAttribute("aria-pressed", "true");
  await page.getByLabel("Your note").fill("Vague: it never names a sea.");
  await page.getByRole("button", { name: "Save note" }).click();
  await expect(page.getByRole("button", { name: "Update note" })).toBeDisabled(); // saved, unchanged
  await expect(page.getByTestId("feedback-row")).toHaveCount(2);

  // Change of mind: thumbs up replaces the reaction; the note stays.
  await up.click();
  await expect(up).toHaveAttribute("aria-pressed", "true");
  await expect(down).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("feedback-row")).toHaveCount(2);
  let rowsNow = await feedbackOn(request, project, ref);
  expect(rowsNow.filter((r) => r.feedback_type === "wandb.reaction.1").map((r) => r.payload.emoji)).toEqual(["👍"]);
  expect(rowsNow.filter((r) => r.feedback_type === "wandb.note.1").map((r) => r.payload.note)).toEqual(["Vague: it never names a sea."]);

  // A score on the project's spec, then a changed score: still one row, against the spec's ref.
  const quality = page.getByLabel("quality");
  await quality.fill("2");
  await page.getByTestId("annotation-field").getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("feedback-row").filter({ hasText: "quality" })).toContainText("2");
  await quality.fill("4");
  await page.getByTestId("annotation-field").getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("feedback-row").filter({ hasText: "quality" })).toContainText("4");
  await expect(page.getByTestId("feedback-row")).toHaveCount(3);
  rowsNow = await feedbackOn(request, project, ref);
  expect(rowsNow.filter((r) => r.feedback_type === "wandb.annotation.quality")).toEqual([expect.objectContaining({ payload: { value: 4 }, annotation_ref: specRef })]);
  expect(rowsNow).toHaveLength(3);

  // Back in the log (its filters kept), the call is found by its feedback and shows its summary.
  await page.goBack();
  await expect(page).toHaveURL(/\/calls\?.*range=1h/);
  await page.getByLabel("Filter by feedback kind").selectOption({ label: "👍 Thumbs up" });
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-call-id", judged);
  await expect(rows.first().getByTestId("feedback-summary")).toContainText("👍 1");
  await page.getByLabel("Filter by feedback kind").selectOption({ label: "Annotation: quality" });
  await expect(rows).toHaveCount(1);
  await page.getByLabel("Filter by feedback kind").selectOption("");
  await page.getByLabel("Filter by feedback", { exact: true }).selectOption("false");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-call-id", other);
});

test("a playground answer gets thumbs on its recorded call", async ({ page, request }) => {
  test.setTimeout(60_000);
  await signInAsAdmin(page);
  await page.getByLabel("Message", { exact: true }).fill("Say hi.");
  const streamed = page.waitForResponse((r) => r.url().endsWith("/v1/chat/completions") && r.request().method() === "POST");
  await page.keyboard.press("Control+Enter");
  const callId = (await streamed).headers()["anneal-call-id"];
  const answer = page.getByTestId("message-assistant").first();
  await answer.getByRole("button", { name: "Thumbs up" }).click();
  await expect(answer.getByRole("button", { name: "Thumbs up" })).toHaveAttribute("aria-pressed", "true");
  const call = (await (await request.get(`/v1/calls/${callId}`, { headers: adminAuth })).json()) as { project: string; ref: string; feedback: { reactions: Record<string, number> } };
  expect(call.feedback.reactions).toEqual({ "👍": 1 });
  expect((await feedbackOn(request, call.project, call.ref)).map((r) => r.payload.emoji)).toEqual(["👍"]);
});
