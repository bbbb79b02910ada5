import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { E2E_INIT_API_KEY } from "../playwright.config";
import { adminAuth, signIn, signInAsAdmin } from "./session";

// A reviewer's pass over a queue, and the annotator's answer to it: three calls are annotated through
// the API by an annotator (a low score with a corrected reply, a high score); the admin, as the
// reviewer, reads each item's prompt, answer, values and the correction as a diff on the queue's
// page, narrows the items with the server's filters and search, rejects the corrected item with a
// note and accepts the other, and exports JSONL with the prompt, answer and correction. The
// annotator signs in, gets the rejected item back first with the reviewer's note, and resubmits it,
// which puts it back in front of the reviewer.

const PROJECT = "e2e-review";
const ANNOTATOR = { username: "e2e-review-annotator", password: "review-annotator-pw-1234" };
const basic = { authorization: `Basic ${Buffer.from(`api:${E2E_INIT_API_KEY}`).toString("base64")}` };
const annotatorAuth = { authorization: `Basic ${Buffer.from(`${ANNOTATOR.username}:${ANNOTATOR.password}`).toString("base64")}` };

async function ok<T>(response: APIResponse, status = 200): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

async function complete(request: APIRequestContext, project: string, content: string) {
  const response = await request.post("/v1/chat/completions", {
    headers: { ...adminAuth, "svc-project": project },
    data: { model: "anneal/tiny-chat", messages: [{ role: "user", content }], max_tokens: 8, seed: 3 },
  });
  const body = await ok<{ choices: { message: { content: string } }[] }>(response);
  return { id: response.headers()["anneal-call-id"], answer: body.choices[0].message.content, prompt: content };
}

test("a reviewer reads the items with previews, values and a correction diff, filters them, rejects one with a note the annotator then reads and answers, accepts another, and exports", async ({ page, browser, request }) => {
  test.setTimeout(150_000);
  const me = await ok<{ user: { username: string } }>(await request.get("/v1/me", { headers: adminAuth }));
  const team = me.user.username;
  const project = `${team}/${PROJECT}`;
  await ok(await request.post(`/v1/teams/${team}/members`, { headers: adminAuth, data: { ...ANNOTATOR, role: "annotator", email: `${ANNOTATOR.username}@e2e.test` } }), 201);
  for (const spec of [{ name: "score", type: "numeric", min: 1, max: 5, integer: true }, { name: "fixed", type: "corrected_reply" }]) {
    await ok(await request.post(`/v1/teams/${team}/projects/${PROJECT}/annotation-specs`, { headers: adminAuth, data: spec }), 201);
  }
  const calls = [];
  for (const prompt of ["Name a mountain.", "Name a lake.", "Name a desert."]) calls.push(await complete(request, project, prompt));
  const queue = await ok<{ id: string }>(
    await request.post("/annotation_queues", {
      headers: basic,
      data: { project, name: "Review queue", specs: [{ name: "score" }, { name: "fixed", required: false }], annotators: [ANNOTATOR.username] },
    }),
    201,
  );
  await ok(await request.post(`/annotation_queues/${queue.id}/items`, { headers: basic, data: { call_ids: calls.map((c) => c.id) } }));
  const annotate = async (values: Record<string, unknown>) => {
    const { item } = await ok<{ item: { id: string } }>(await request.post(`/annotation_queues/${queue.id}/next`, { headers: annotatorAuth }));
    await ok(await request.post(`/annotation_queues/${queue.id}/items/${item.id}/submit`, { headers: annotatorAuth, data: { values } }));
  };
  await annotate({ score: 2, fixed: "Mount Everest, the highest." });
  await annotate({ score: 5 });

  // The reviewer opens the queue: prompts, answers, the annotator's values and the correction as a diff.
  await signInAsAdmin(page);
  await page.goto(`/queues/${queue.id}`);
  await expect(page.getByRole("heading", { name: "Review queue" })).toBeVisible({ timeout: 30_000 });
  const rows = page.getByTestId("queue-item-row");
  await expect(rows).toHaveCount(3, { timeout: 30_000 });
  await expect(rows.nth(0).getByTestId("item-prompt")).toHaveText("Name a mountain.");
  await expect(rows.nth(0).getByTestId("item-answer")).toHaveText(calls[0].answer.trim() || "no answer");
  const first = rows.nth(0).getByTestId("item-annotation");
  await expect(first).toContainText(ANNOTATOR.username);
  await expect(first).toContainText("score: 2");
  const diff = first.getByLabel(`fixed by ${ANNOTATOR.username}, against the model's reply`);
  await expect(diff.locator("ins")).toContainText("Everest");
  await expect(rows.nth(2).getByText("none yet")).toBeVisible();

  // Server-side filters: a spec's value, the annotator, and text search.
  await page.getByLabel("Filter items by spec").selectOption("score");
  await page.getByLabel("Spec value").fill("5");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId("item-prompt")).toHaveText("Name a lake.");
  await page.getByLabel("Filter items by spec").selectOption("");
  await page.getByLabel("Search items").fill("everest");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId("item-prompt")).toHaveText("Name a mountain.");
  await page.getByLabel("Search items").fill("");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByLabel("Filter items by annotator").selectOption(ANNOTATOR.username);
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Filter items by annotator").selectOption("");
  await expect(rows).toHaveCount(3);

  // Reject the corrected item with a note; accept the other. The untouched item offers no review.
  await expect(rows.nth(2).getByRole("button", { name: "Reject item 3" })).toHaveCount(0);
  await rows.nth(0).getByRole("button", { name: "Reject item 1" }).click();
  const reject = page.getByRole("dialog", { name: "Reject item 1" });
  await reject.getByLabel("Note to the annotators").fill("Score the answer the model gave, not your correction.");
  await reject.getByRole("button", { name: "Reject" }).click();
  await expect(reject).toBeHidden();
  await expect(rows.nth(0)).toContainText("Rejected");
  await expect(rows.nth(0)).toContainText("Score the answer the model gave");
  await rows.nth(1).getByRole("button", { name: "Accept item 2" }).click();
  await expect(rows.nth(1)).toContainText("Accepted");
  await expect(page.getByRole("progressbar", { name: "Progress of Review queue" })).toHaveAttribute("aria-valuetext", "1 of 3 completed (1 accepted), 1 rejected");
  await page.getByLabel("Filter items by review").selectOption("rejected");
  await expect(rows).toHaveCount(1);
  await page.getByLabel("Filter items by review").selectOption("");

  // Export JSONL: the prompt, the answer and the correction beside the values.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export JSONL" }).click()]);
  const records = (await readFile((await download.path())!, "utf8")).trim().split("\n").map((line) => JSON.parse(line));
  expect(records[0]).toMatchObject({ prompt: "Name a mountain.", answer: calls[0].answer, correction: "Mount Everest, the highest.", values: { score: 2 }, review_state: "rejected" });
  expect(records[1]).toMatchObject({ prompt: "Name a lake.", correction: null, values: { score: 5 }, review_state: "accepted" });

  // The annotator gets the rejected item back first, reads the note, and changes the score.
  const annotatorContext = await browser.newContext();
  const annotatorPage = await annotatorContext.newPage();
  await signIn(annotatorPage, ANNOTATOR.username, ANNOTATOR.password);
  await expect(annotatorPage).toHaveURL(/\/annotate$/);
  await annotatorPage.goto(`/annotate/${queue.id}`);
  await expect(annotatorPage.getByTestId("review-note")).toHaveText("Score the answer the model gave, not your correction.");
  await expect(annotatorPage.getByTestId("display-fields").or(annotatorPage.getByText("Name a mountain.")).first()).toBeVisible();
  const score = (n: number) => annotatorPage.getByTestId("annotate-field").and(annotatorPage.locator('[data-spec="score"]')).getByRole("radio", { name: new RegExp(String(n)) });
  await expect(score(2)).toHaveAttribute("aria-checked", "true");
  await score(4).click();
  await annotatorPage.keyboard.press("Control+Enter");
  await expect(annotatorPage.getByTestId("review-note")).toHaveCount(0); // on to the next item
  await annotatorContext.close();

  // Back with the reviewer: resubmitted, the item waits for review again, with the new score.
  await page.reload();
  await expect(rows.nth(0)).toContainText("Not reviewed");
  await expect(rows.nth(0).getByTestId("item-annotation")).toContainText("score: 4");
  await expect(page.getByRole("progressbar", { name: "Progress of Review queue" })).toHaveAttribute("aria-valuetext", "2 of 3 completed (1 accepted), 1 in progress"); // the annotator moved on to item 3
});
