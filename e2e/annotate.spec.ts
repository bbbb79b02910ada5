import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_INIT_API_KEY } from "../playwright.config";
import { adminAuth, signIn, signInAsAdmin } from "./session";

// An annotator's day, keyboard only: a queue of four calls is set up through the API (an annotator
// added to the admin's team, annotation specs, the calls, the queue assigned to them); the
// annotator signs in, scores items with digit keys, fixes a corrected reply that opened as the
// model's answer, finds a draft kept across a reload, skips one with a reason, goes Back to change
// an earlier score, and reaches "Queue done". The feedback rows are read through /feedback/query.

const PROJECT = "e2e-annotate";
const ANNOTATOR = { username: "e2e-keyboard-annotator", password: "annotator-pw-1234" };
const basic = { authorization: `Basic ${Buffer.from(`api:${E2E_INIT_API_KEY}`).toString("base64")}` };

async function ok<T>(response: Awaited<ReturnType<APIRequestContext["post"]>>, status = 200): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

async function complete(request: APIRequestContext, project: string, content: string) {
  const response = await request.post("/v1/chat/completions", {
    headers: { ...adminAuth, "svc-project": project },
    data: { model: "anneal/tiny-chat", messages: [{ role: "user", content }], max_tokens: 8, seed: 5 },
  });
  const body = await ok<{ choices: { message: { content: string } }[] }>(response);
  return { id: response.headers()["anneal-call-id"], answer: body.choices[0].message.content, prompt: content };
}

type Call = Awaited<ReturnType<typeof complete>>;

interface FeedbackRow {
  feedback_type: string;
  svc_ref: string;
  payload: Record<string, unknown>;
  queue_id: string | null;
  wb_user_id: string;
}

test("an annotator completes a queue with the keyboard only: scores, a corrected reply, a draft kept over a reload, a skip, Back to edit, Queue done", async ({ page, request }) => {
  test.setTimeout(120_000);
  const me = await ok<{ user: { username: string } }>(await request.get("/v1/me", { headers: adminAuth }));
  const team = me.user.username;
  const project = `${team}/${PROJECT}`;

  await ok(await request.post(`/v1/teams/${team}/members`, { headers: adminAuth, data: { ...ANNOTATOR, role: "annotator", email: `${ANNOTATOR.username}@e2e.test` } }), 201);
  const specs = [
    { name: "quality", type: "numeric", min: 1, max: 5, integer: true, description: "How good is the answer?" },
    { name: "on_topic", type: "boolean" },
    { name: "better_reply", type: "corrected_reply", description: "The answer as it should have been." },
  ];
  for (const spec of specs) await ok(await request.post(`/v1/teams/${team}/projects/${PROJECT}/annotation-specs`, { headers: adminAuth, data: spec }), 201);
  const calls: Call[] = [];
  for (const prompt of ["Name a sea.", "Count to three.", "Say hello in Welsh.", "What is two plus two?"]) calls.push(await complete(request, project, prompt));
  const queue = await ok<{ id: string }>(
    await request.post("/annotation_queues", {
      headers: basic,
      data: {
        project,
        name: "Keyboard queue",
        instructions: "Score each answer from 1 to 5. Rewrite the reply when it is wrong.",
        specs: [{ name: "quality" }, { name: "on_topic" }, { name: "better_reply", required: false }],
        display_fields: ["messages.0.content"],
        annotators: [ANNOTATOR.username],
      },
    }),
    201,
  );
  await ok(await request.post(`/annotation_queues/${queue.id}/items`, { headers: basic, data: { call_ids: calls.map((c) => c.id) } }), 200);

  // The annotator signs in and lands on their queues.
  await signIn(page, ANNOTATOR.username, ANNOTATOR.password);
  await expect(page).toHaveURL(/\/annotate$/);
  const row = page.getByTestId("queue-row").filter({ hasText: "Keyboard queue" });
  await expect(row).toContainText("Score each answer from 1 to 5.");
  await expect(row.getByTestId("queue-progress")).toHaveText("0 done by you · 4 remaining · 4 total");
  await row.getByRole("link", { name: "Start Keyboard queue" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/annotate/${queue.id}$`));

  const field = (spec: string) => page.getByTestId("annotate-field").and(page.locator(`[data-spec="${spec}"]`));
  // A whole-number 1–5 field is a row of numbered buttons (radios); the digit keys press them.
  const quality = (n: number) => field("quality").getByRole("radio", { name: new RegExp(String(n)) });
  const reply = field("better_reply").getByRole("textbox");
  const onItem = async (call: Call) => {
    await expect(page.getByTestId("display-fields")).toContainText(call.prompt);
    await expect(page.getByTestId("answer")).toBeVisible();
  };

  // Item 1: nothing filled → required fields are named; then 4, Yes, and a rewritten reply that
  // opened as the model's answer — submitted with Ctrl+Enter from inside the text field.
  await onItem(calls[0]);
  await expect(page.getByText("Score each answer from 1 to 5.")).toBeVisible(); // the instructions
  await expect(reply).toHaveValue(calls[0].answer);
  await page.keyboard.press("Control+Enter");
  await expect(field("quality").getByRole("alert")).toHaveText("Required");
  await expect(field("on_topic").getByRole("alert")).toHaveText("Required");
  await page.keyboard.press("4");
  await expect(quality(4)).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("j");
  await page.keyboard.press("1");
  await expect(field("on_topic").getByRole("radio", { name: /Yes/ })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("j");
  await page.keyboard.press("Enter");
  await expect(reply).toBeFocused();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("The North Sea.");
  await page.keyboard.press("s"); // typing: no shortcut fires
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(reply).toHaveValue("The North Sea.s");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Control+Enter");

  // Item 2: a draft survives a reload; k goes back up a field; 2 is No.
  await onItem(calls[1]);
  await page.keyboard.press("3");
  await page.keyboard.press("j");
  await page.keyboard.press("2");
  await page.reload();
  await onItem(calls[1]);
  await expect(quality(3)).toHaveAttribute("aria-checked", "true");
  await expect(field("on_topic").getByRole("radio", { name: /No/ })).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("Control+Enter");

  // Item 3: skipped with a reason.
  await onItem(calls[2]);
  await page.keyboard.press("s");
  const skip = page.getByRole("dialog", { name: "Skip this item?" });
  await expect(skip.getByLabel(/Reason/)).toBeFocused();
  await page.keyboard.type("I do not read Welsh.");
  await page.keyboard.press("Enter");
  await expect(skip).toHaveCount(0);

  // Item 4: the shortcuts dialog, then 5 and Yes; the reply left as the model wrote it.
  await onItem(calls[3]);
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.keyboard.press("5");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("1");
  await page.keyboard.press("Control+Enter");

  await expect(page.getByText("Queue done")).toBeVisible();
  await expect(page.getByTestId("queue-progress")).toContainText("0 remaining");

  // Back (←) to item 4, then item 2: opened with one's values; 5 and Ctrl+Enter resubmit it.
  await page.keyboard.press("ArrowLeft");
  await onItem(calls[3]);
  await expect(page.getByTestId("revisiting")).toBeVisible();
  await expect(quality(5)).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("ArrowLeft");
  await onItem(calls[1]);
  await expect(quality(3)).toHaveAttribute("aria-checked", "true");
  await page.keyboard.press("5");
  await page.keyboard.press("Control+Enter");
  await onItem(calls[3]); // forward to the next submitted item
  await page.keyboard.press("ArrowRight");
  await expect(page.getByText("Queue done")).toBeVisible();

  // Their queue list: everything done, by them (three completed, one skipped).
  await page.getByRole("link", { name: "All queues" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/annotate$/);
  await expect(row.getByTestId("queue-progress")).toHaveText("4 done by you · 0 remaining · 4 total");
  await expect(row.getByRole("link", { name: "Open Keyboard queue" })).toBeVisible();

  // The rows, as an API client reads them: one value per spec and item, in this queue, by the annotator.
  const result = await ok<{ result: FeedbackRow[] }>(
    await request.post("/feedback/query", { headers: basic, data: { project_id: project, sort_by: [{ field: "created_at", direction: "asc" }], limit: 100 } }),
  );
  const on = (call: Call, type: string) => result.result.filter((r) => r.svc_ref === `svc:///${project}/call/${call.id}` && r.feedback_type === type).map((r) => r.payload);
  const annotations = result.result.filter((r) => r.feedback_type.startsWith("wandb.annotation."));
  expect(annotations.every((r) => r.queue_id === queue.id)).toBe(true);
  expect(new Set(annotations.map((r) => r.wb_user_id)).size).toBe(1);
  expect(on(calls[0], "wandb.annotation.quality")).toEqual([{ value: 4 }]);
  expect(on(calls[0], "wandb.annotation.on_topic")).toEqual([{ value: true }]);
  expect(on(calls[0], "wandb.annotation.better_reply")).toEqual([{ value: "The North Sea." }]);
  expect(on(calls[1], "wandb.annotation.quality")).toEqual([{ value: 5 }]); // replaced, not added
  expect(on(calls[1], "wandb.annotation.on_topic")).toEqual([{ value: false }]);
  expect(on(calls[2], "wandb.note.1")).toEqual([{ note: "I do not read Welsh." }]);
  expect(result.result.filter((r) => r.svc_ref.endsWith(calls[2].id) && r.feedback_type.startsWith("wandb.annotation."))).toEqual([]);
  expect(on(calls[3], "wandb.annotation.quality")).toEqual([{ value: 5 }]);
  expect(on(calls[3], "wandb.annotation.better_reply")).toEqual([]); // left as the model wrote it: no correction stored
});

test("a preferred choice between two answers, picked with a digit; Release (r) gives the next item back and opens the queue list", async ({ page, request }) => {
  test.setTimeout(90_000);
  const me = await ok<{ user: { username: string } }>(await request.get("/v1/me", { headers: adminAuth }));
  const project = `${me.user.username}/e2e-pairs`;
  await ok(await request.post(`/v1/teams/${me.user.username}/projects/e2e-pairs/annotation-specs`, { headers: adminAuth, data: { name: "better", type: "preferred_choice" } }), 201);
  const pairs: string[] = [];
  for (const content of ["Name a planet.", "Name a tree."]) {
    const response = await request.post("/v1/chat/completions", {
      headers: { ...adminAuth, "svc-project": project },
      data: { model: "anneal/tiny-chat", messages: [{ role: "user", content }], max_tokens: 6, n: 2, seed: 3 },
    });
    expect((await ok<{ choices: unknown[] }>(response)).choices).toHaveLength(2);
    pairs.push(response.headers()["anneal-call-id"]);
  }
  const queue = await ok<{ id: string }>(
    await request.post("/annotation_queues", { headers: basic, data: { project, name: "Pairs queue", instructions: "Which answer is better?", specs: [{ name: "better" }], annotators: [me.user.username] } }),
    201,
  );
  await ok(await request.post(`/annotation_queues/${queue.id}/items`, { headers: basic, data: { call_ids: pairs } }));

  await signInAsAdmin(page);
  await page.goto(`/annotate/${queue.id}`);
  // The two answers side by side; 2 prefers the second, and says over which.
  const answers = page.getByTestId("answer-choices").getByTestId("answer");
  await expect(answers).toHaveCount(2);
  await expect(answers.first()).toContainText("Choice 1");
  await page.keyboard.press("2");
  await expect(page.getByTestId("preference-summary")).toHaveText("Choice 2 is preferred over choice 1.");
  await expect(answers.nth(1)).toHaveAttribute("data-mark", "preferred");
  await expect(answers.first()).toHaveAttribute("data-mark", "over");
  await page.keyboard.press("Control+Enter");

  // The next item is claimed; `?` lists r, and r releases it and opens the queue list.
  await expect(page.getByTestId("queue-progress")).toContainText("Item 2 of 2");
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toContainText("Release this item");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("button", { name: "Release" })).toBeVisible();
  await page.keyboard.press("r");
  await expect(page).toHaveURL(/\/annotate$/);
  await expect(page.getByTestId("queue-row").filter({ hasText: "Pairs queue" }).getByTestId("queue-progress")).toHaveText("1 done by you · 1 remaining · 2 total");

  // Nobody holds the released item; the pair was stored as {preferred, over}.
  const items = await ok<{ data: { call_id: string; status: string; claimed_by: string | null }[] }>(await request.get(`/annotation_queues/${queue.id}/items`, { headers: basic }));
  expect(items.data.map((i) => [i.call_id, i.status, i.claimed_by])).toEqual([
    [pairs[0], "completed", null],
    [pairs[1], "unstarted", null],
  ]);
  const rows = await ok<{ result: FeedbackRow[] }>(await request.post("/feedback/query", { headers: basic, data: { project_id: project } }));
  expect(rows.result.map((r) => [r.svc_ref, r.feedback_type, r.payload])).toEqual([[`svc:///${project}/call/${pairs[0]}`, "wandb.annotation.better", { value: { preferred: 1, over: 0 } }]]);
});
