import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext, type APIResponse } from "@playwright/test";
import { E2E_INIT_API_KEY } from "../playwright.config";
import { adminAuth, signInAsAdmin } from "./session";

// An engineer runs an annotation queue from the console: creates it with instructions, a numeric
// score spec and a corrected-reply spec made on the spot, and an assigned annotator; fills it with
// five calls selected on the Calls page (adding two again, or the filter's five, counts them as
// already there); follows the annotator's progress (their work is done through the API, with their
// password, as a client would) on the queue's page and the queue list; exports the annotations as
// CSV; changes its instructions; takes an item out; and deletes the queue.

const PROJECT = "e2e-queues";
const ANNOTATOR = { username: "e2e-queue-annotator", password: "queue-annotator-pw-1234" };
/** Annotation routes take Basic credentials: the admin's API key, or a person's password. */
const adminBasic = { authorization: `Basic ${Buffer.from(`api:${E2E_INIT_API_KEY}`).toString("base64")}` };
const annotatorAuth = { authorization: `Basic ${Buffer.from(`${ANNOTATOR.username}:${ANNOTATOR.password}`).toString("base64")}` };

async function ok<T>(response: APIResponse, status = 200): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

async function complete(request: APIRequestContext, project: string, content: string): Promise<string> {
  const response = await request.post("/v1/chat/completions", {
    headers: { ...adminAuth, "svc-project": project },
    data: { model: "anneal/tiny-chat", messages: [{ role: "user", content }], max_tokens: 8, seed: 7 },
  });
  await ok(response);
  return response.headers()["anneal-call-id"];
}

/** The annotator claims their next item of the queue. */
async function nextItem(request: APIRequestContext, queueId: string): Promise<string> {
  const { item } = await ok<{ item: { id: string } | null }>(await request.post(`/annotation_queues/${queueId}/next`, { headers: annotatorAuth }));
  expect(item).not.toBeNull();
  return item!.id;
}

test("an engineer creates a queue with a score, a corrected reply and instructions, fills it from the Calls page, assigns an annotator, follows progress and exports CSV", async ({ page, request }) => {
  test.setTimeout(120_000);
  const me = await ok<{ user: { username: string } }>(await request.get("/v1/me", { headers: adminAuth }));
  const team = me.user.username;
  const project = `${team}/${PROJECT}`;
  await ok(await request.post(`/v1/teams/${team}/members`, { headers: adminAuth, data: { ...ANNOTATOR, role: "annotator", email: `${ANNOTATOR.username}@e2e.test` } }), 201);
  const calls: string[] = [];
  for (const prompt of ["Name a river.", "Count to five.", "Say thanks in French.", "What is three plus four?", "Name a colour."]) calls.push(await complete(request, project, prompt));
  await complete(request, `${team}/default`, "Not for this queue.");
  await ok(await request.put("/v1/me/workspace", { headers: adminAuth, data: { team, project: PROJECT } }));

  await signInAsAdmin(page);
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Queues", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Annotation queues", level: 1 })).toBeVisible();

  // Create the queue: settings, two specs made in the form, the annotator assigned.
  await page.getByRole("button", { name: "New queue" }).click();
  const dialog = page.getByRole("dialog", { name: "New annotation queue" });
  await expect(dialog.getByLabel("Project")).toHaveValue(project);
  await dialog.getByLabel("Name", { exact: true }).fill("Weekly answers");
  await dialog.getByLabel("Description", { exact: true }).fill("Answers of the week, scored");
  await dialog.getByLabel("Instructions", { exact: true }).fill("Score each answer from 1 to 5.\nRewrite the reply when it is wrong.");
  await dialog.getByRole("button", { name: "+ New spec" }).click();
  await dialog.getByLabel("Spec name").fill("quality_score");
  await dialog.getByLabel("Spec type").selectOption("numeric");
  await dialog.getByLabel("Minimum").fill("1");
  await dialog.getByLabel("Maximum").fill("5");
  await dialog.getByRole("button", { name: "Create spec" }).click();
  await expect(dialog.getByRole("checkbox", { name: /quality_score/ })).toBeChecked();
  await dialog.getByRole("button", { name: "+ New spec" }).click();
  await dialog.getByLabel("Spec name").fill("fixed_reply");
  await dialog.getByLabel("Spec type").selectOption("corrected_reply");
  await dialog.getByRole("button", { name: "Create spec" }).click();
  await expect(dialog.getByRole("checkbox", { name: /fixed_reply/ })).toBeChecked();
  await dialog.getByLabel("fixed_reply: required or optional").selectOption("optional");
  await dialog.getByRole("checkbox", { name: new RegExp(ANNOTATOR.username) }).check();
  await dialog.getByRole("button", { name: "Create queue" }).click();
  await expect(page).toHaveURL(/\/queues\/[0-9a-f-]{36}$/);
  const queueId = page.url().split("/").pop()!;
  await expect(page.getByRole("heading", { name: "Weekly answers", level: 1 })).toBeVisible();
  await expect(page.getByText("Score each answer from 1 to 5.")).toBeVisible();
  const queue = await ok<{ instructions: string; specs: { name: string; type: string; required: boolean }[]; annotators: { username: string }[] }>(
    await request.get(`/annotation_queues/${queueId}`, { headers: adminBasic }),
  );
  expect(queue.instructions).toBe("Score each answer from 1 to 5.\nRewrite the reply when it is wrong.");
  expect(queue.specs.map((s) => [s.name, s.type, s.required])).toEqual([
    ["quality_score", "numeric", true],
    ["fixed_reply", "corrected_reply", false],
  ]);
  expect(queue.annotators.map((a) => a.username)).toEqual([ANNOTATOR.username]);

  // Fill it from the Calls page: the project's five calls, selected.
  await nav.getByRole("link", { name: "Calls", exact: true }).click();
  await page.getByLabel("Filter by project").selectOption(project);
  const rows = page.getByTestId("call-row");
  await expect(rows).toHaveCount(5);
  await page.getByRole("checkbox", { name: "Select all shown calls" }).check();
  await page.getByRole("button", { name: "Add to queue (5)" }).click();
  const addDialog = page.getByRole("dialog", { name: "Add calls to a queue" });
  await expect(addDialog.getByLabel("Queue")).toHaveValue(queueId);
  await addDialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(addDialog.getByRole("status")).toHaveText("5 added, 0 already in the queue.");
  await addDialog.getByRole("button", { name: "Done" }).click();
  // Two of them again: nothing added, both counted as already there.
  await page.getByRole("checkbox", { name: `Select call ${calls[0]}` }).check();
  await page.getByRole("checkbox", { name: `Select call ${calls[1]}` }).check();
  await page.getByRole("button", { name: "Add to queue (2)" }).click();
  await addDialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(addDialog.getByRole("status")).toHaveText("0 added, 2 already in the queue.");
  await addDialog.getByRole("button", { name: "Done" }).click();
  // Nothing selected: every call the filters match (the project's five), all already there.
  await page.getByRole("button", { name: "Add to queue", exact: true }).click();
  await expect(addDialog.getByRole("radio", { name: "Every call matching the current filters" })).toBeChecked();
  await addDialog.getByRole("button", { name: "Add", exact: true }).click();
  await expect(addDialog.getByRole("status")).toHaveText("0 added, 5 already in the queue.");
  await addDialog.getByRole("link", { name: "Open the queue" }).click();
  await expect(page).toHaveURL(new RegExp(`/queues/${queueId}$`));
  await expect(page.getByTestId("queue-item-row")).toHaveCount(5);
  await expect(page.getByRole("progressbar", { name: "Progress of Weekly answers" })).toHaveAttribute("aria-valuetext", "0 of 5 completed");

  // The annotator completes two items and skips one.
  for (const [score, reply] of [[4, "A river: the Thames."], [2, "One two three four five."]] as const) {
    const itemId = await nextItem(request, queueId);
    await ok(await request.post(`/annotation_queues/${queueId}/items/${itemId}/submit`, { headers: annotatorAuth, data: { values: { quality_score: score, fixed_reply: reply } } }));
  }
  const skipped = await nextItem(request, queueId);
  await ok(await request.post(`/annotation_queues/${queueId}/items/${skipped}/skip`, { headers: annotatorAuth, data: { reason: "unclear prompt" } }));

  await page.reload();
  await expect(page.getByRole("progressbar", { name: "Progress of Weekly answers" })).toHaveAttribute("aria-valuetext", "2 of 5 completed, 1 skipped");
  const annotatorRow = page.getByTestId("annotator-row").filter({ hasText: ANNOTATOR.username });
  await expect(annotatorRow.getByRole("cell")).toHaveText([ANNOTATOR.username, "2", "1", "0"]);
  await page.getByLabel("Filter items by status").selectOption("completed");
  await expect(page.getByTestId("queue-item-row")).toHaveCount(2);

  // Export CSV: a line per person and item they finished, with the prompt, the answer and the
  // correction beside the values (read back through the JSONL export, whose lines are records).
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toBe("annotations-Weekly-answers.csv");
  const csv = await readFile((await download.path())!, "utf8");
  expect(csv.split("\r\n")[0]).toBe(
    "queue_id,item_id,call_id,annotator,annotator_user_id,state,prompt,answer,correction,quality_score,fixed_reply,note,review_state,review_note,submitted_at,time_spent_ms",
  );
  const [jsonl] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export JSONL" }).click()]);
  const records = (await readFile((await jsonl.path())!, "utf8")).trim().split("\n").map((line) => JSON.parse(line));
  expect(records.map((r) => [r.queue_id, r.annotator, r.state, r.values.quality_score ?? null])).toEqual([
    [queueId, ANNOTATOR.username, "completed", 4],
    [queueId, ANNOTATOR.username, "completed", 2],
    [queueId, ANNOTATOR.username, "skipped", null],
  ]);
  const prompts = ["Name a river.", "Count to five.", "Say thanks in French.", "What is three plus four?", "Name a colour."];
  expect(records.every((r) => prompts.includes(r.prompt) && typeof r.answer === "string")).toBe(true);
  expect(records[0]).toMatchObject({ correction: "A river: the Thames.", answer: expect.any(String) });
  expect(records[2].note).toBe("unclear prompt");
  expect(records.every((r) => calls.includes(r.call_id))).toBe(true);

  // Configured: the instructions change (the form opens with the queue's settings).
  await page.getByRole("button", { name: "Configure" }).click();
  const configure = page.getByRole("dialog", { name: "Configure Weekly answers" });
  await expect(configure.getByLabel("Project")).toBeDisabled();
  await expect(configure.getByRole("checkbox", { name: /fixed_reply/ })).toBeChecked();
  await configure.getByLabel("Instructions", { exact: true }).fill("Score each answer from 1 to 5. Be strict.");
  await configure.getByRole("button", { name: "Save" }).click();
  await expect(configure).toBeHidden();
  await expect(page.getByText("Score each answer from 1 to 5. Be strict.")).toBeVisible();

  // One of the two items nobody started is taken out.
  await page.getByLabel("Filter items by status").selectOption("unstarted");
  const unstarted = page.getByTestId("queue-item-row");
  await expect(unstarted).toHaveCount(2);
  await unstarted.first().getByRole("button", { name: /^Remove call / }).click();
  await expect(unstarted).toHaveCount(1);
  await expect(page.getByRole("progressbar", { name: "Progress of Weekly answers" })).toHaveAttribute("aria-valuetext", "2 of 4 completed, 1 skipped");

  // The queue list shows the same progress.
  await nav.getByRole("link", { name: "Queues", exact: true }).click();
  const queueRow = page.getByTestId("queue-row").filter({ hasText: "Weekly answers" });
  await expect(queueRow).toContainText("2 of 4 completed, 1 skipped");
  await expect(queueRow).toContainText(ANNOTATOR.username);

  // Deleted, it leaves the list (and the API answers 404).
  await queueRow.getByRole("link", { name: "Weekly answers" }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("dialog", { name: "Delete Weekly answers?" }).getByRole("button", { name: "Delete queue" }).click();
  await expect(page).toHaveURL(/\/queues$/);
  await expect(page.getByRole("table", { name: "Annotation queues" }).or(page.getByText("No queues yet"))).toBeVisible();
  await expect(page.getByTestId("queue-row").filter({ hasText: "Weekly answers" })).toHaveCount(0);
  expect((await request.get(`/annotation_queues/${queueId}`, { headers: adminBasic })).status()).toBe(404);
});
