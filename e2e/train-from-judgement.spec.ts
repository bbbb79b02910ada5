import { expect, test, type APIResponse } from "@playwright/test";
import { E2E_INIT_API_KEY } from "../playwright.config";
import { adminAuth, signInAsAdmin } from "./session";

// Judgement back into training: a queue's calls were scored and some replies rewritten (through the
// API here; e2e/annotate.spec.ts drives the annotator's screen). The engineer builds an SFT dataset
// from the queue on a model's Train dialog — the calls scored 4 or more, with the rewritten replies
// in place of the model's (the queue's corrected-reply field comes preselected) — sees what was used
// and left out, trains, finds the queue and the rule on the job's page, chats with the checkpoint, and
// finds the job again from the checkpoint's row. RL from the same scores previews its groups and shows
// the groups of one it would leave out. A reviewer accepted two of the scored items (through the API;
// e2e/queue-review.spec.ts drives the reviewer's screen): ticking "Only items a reviewer accepted"
// builds from those two alone, leaving out the unaccepted correction, and the job's lineage says so.

const PROJECT = "e2e-judged";
const basic = { authorization: `Basic ${Buffer.from(`api:${E2E_INIT_API_KEY}`).toString("base64")}` };

async function ok<T>(response: APIResponse, status = 200): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

test("an engineer trains a model on a queue's corrected replies and follows the lineage", async ({ page, request }) => {
  test.setTimeout(180_000);
  const me = await ok<{ user: { username: string } }>(await request.get("/v1/me", { headers: adminAuth }));
  const team = me.user.username;
  const project = `${team}/${PROJECT}`;
  await ok(await request.put("/v1/me/workspace", { headers: adminAuth, data: { team, project: PROJECT } }));
  const specs = `/v1/teams/${team}/projects/${PROJECT}/annotation-specs`;
  await ok(await request.post(specs, { headers: adminAuth, data: { name: "helpful", type: "numeric", min: 1, max: 5, integer: true } }), 201);
  await ok(await request.post(specs, { headers: adminAuth, data: { name: "rewrite", type: "corrected_reply" } }), 201);
  const calls: string[] = [];
  for (const content of ["What is the capital of France?", "Say hello.", "Name a fruit.", "Count to three."]) {
    const response = await request.post("/v1/chat/completions", {
      headers: { ...adminAuth, "svc-project": project },
      data: { model: "anneal/tiny-chat", messages: [{ role: "user", content }], max_tokens: 8, seed: 3 },
    });
    await ok(response);
    calls.push(response.headers()["anneal-call-id"]);
  }
  const queue = await ok<{ id: string }>(
    await request.post("/annotation_queues", { headers: basic, data: { project, name: "Judged answers", specs: [{ name: "helpful" }, { name: "rewrite", required: false }] } }),
    201,
  );
  await ok(await request.post(`/annotation_queues/${queue.id}/items`, { headers: basic, data: { call_ids: calls } }));
  const items = (await ok<{ data: { id: string; call_id: string }[] }>(await request.get(`/annotation_queues/${queue.id}/items`, { headers: basic }))).data;
  const submit = (i: number, values: Record<string, unknown>) => request.post(`/annotation_queues/${queue.id}/items/${items[i].id}/submit`, { headers: basic, data: { values } });
  await ok(await submit(0, { helpful: 2, rewrite: "The capital of France is Paris." }));
  await ok(await submit(1, { helpful: 5 }));
  await ok(await submit(2, { helpful: 1 }));
  for (const i of [1, 2]) await ok(await request.post(`/annotation_queues/${queue.id}/items/${items[i].id}/review`, { headers: basic, data: { review_state: "accepted" } }));
  const model = await ok<{ id: string; entity: string; project: string; name: string }>(
    await request.post("/v1/preview/models", { headers: adminAuth, data: { project: PROJECT, name: "e2e-judged-sft", base_model: "anneal/tiny-chat", return_existing: true } }),
  );

  await signInAsAdmin(page);
  await page.goto(`/models/${model.id}`);
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Train e2e-judged-sft" });
  await dialog.getByRole("tab", { name: "SFT: recorded calls" }).click();
  await dialog.getByRole("radio", { name: "By judgement" }).click();
  await expect(dialog.getByLabel("Corrected replies")).toHaveValue(""); // no queue chosen yet
  await expect(dialog.getByLabel("Only items a reviewer accepted")).toBeDisabled(); // reviews are of a queue's items
  await dialog.getByLabel("Queue", { exact: true }).selectOption(queue.id);
  await expect(dialog.getByLabel("Only items a reviewer accepted")).toBeEnabled();
  await expect(dialog.getByLabel("Only items a reviewer accepted")).not.toBeChecked();
  await expect(dialog.getByText("2 of 4 items accepted")).toBeVisible();
  // The queue's corrected-reply field is preselected: the engineer does not pick it.
  await expect(dialog.getByLabel("Corrected replies")).toHaveValue("rewrite");
  await dialog.getByLabel("Rule on").selectOption("helpful");
  await dialog.getByLabel("Comparison").selectOption(">=");
  await dialog.getByLabel("Value", { exact: true }).fill("4");
  await dialog.getByRole("button", { name: "Build dataset" }).click();
  const summary = dialog.getByRole("status", { name: "Dataset" });
  await expect(summary).toContainText("4 calls matched, 2 used (1 with a corrected reply)");
  await expect(summary.getByRole("list", { name: "Left out" })).toContainText("1 left out: the annotation does not pass the rule");
  await expect(summary.getByRole("list", { name: "Left out" })).toContainText("1 left out: no annotation for the rule's (or reward's) spec");

  await dialog.getByLabel("Batch size").fill("2");
  await dialog.getByRole("button", { name: "Train on 2 examples" }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  const jobId = page.url().split("/").at(-1)!;
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });

  // The job says where its data came from: the queue (all its items, not only reviewer-accepted ones), the rule, the annotations it read.
  await expect(page.getByRole("link", { name: "Judged answers" })).toHaveAttribute("href", `/queues/${queue.id}`);
  await expect(page.getByLabel("Lineage")).toContainText("Judged answers (all items)");
  await expect(page.getByText("helpful ≥ 4")).toBeVisible();
  await expect(page.getByRole("link", { name: "Stats → Feedback" }).first()).toHaveAttribute("href", `/stats?tab=feedback&project=${encodeURIComponent(project)}&feedback_type=wandb.annotation.helpful`);

  // The checkpoint serves.
  const checkpoint = `${model.entity}/${model.project}/${model.name}:step1`;
  const reply = await ok<{ model: string; choices: { message: { content: string } }[] }>(
    await request.post("/v1/chat/completions", { headers: adminAuth, data: { model: checkpoint, messages: [{ role: "user", content: "What is the capital of France?" }], max_tokens: 8 } }),
  );
  expect(reply.model).toBe(checkpoint);
  expect(typeof reply.choices[0].message.content).toBe("string");

  // The checkpoint's row links back to the job that wrote it.
  await page.goto(`/models/${model.id}`);
  await expect(page.getByRole("link", { name: "Job that wrote step 1" })).toHaveAttribute("href", `/jobs/${jobId}`);

  // RL from the same scores: each prompt was asked once, so every group would hold one trajectory —
  // shown, warned about, and not trained.
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const rl = page.getByRole("dialog", { name: "Train e2e-judged-sft" });
  await rl.getByRole("tab", { name: "RL: trajectory groups" }).click();
  await rl.getByRole("radio", { name: "Human scores" }).click();
  await rl.getByLabel("Queue", { exact: true }).selectOption(queue.id);
  await rl.getByLabel("Reward", { exact: true }).selectOption("helpful");
  await rl.getByRole("button", { name: "Preview groups" }).click();
  const preview = rl.getByRole("status", { name: "Groups preview" });
  await expect(preview).toContainText("4 calls matched: 0 groups of 0 trajectories to train on.");
  await expect(preview).toContainText("3 groups of one trajectory left out");
  await expect(rl.getByRole("table", { name: "Left out: groups of one" }).getByRole("row")).toHaveCount(4); // the header and 3

  // The reviewer-accepted items only: the two accepted calls match, the one scored 5 is used; the
  // unaccepted correction (and the unscored call) are not even matched.
  await page.goto(`/models/${model.id}`);
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const acceptedOnly = page.getByRole("dialog", { name: "Train e2e-judged-sft" });
  await acceptedOnly.getByRole("tab", { name: "SFT: recorded calls" }).click();
  await acceptedOnly.getByRole("radio", { name: "By judgement" }).click();
  await acceptedOnly.getByLabel("Queue", { exact: true }).selectOption(queue.id);
  await acceptedOnly.getByLabel("Only items a reviewer accepted").check();
  await acceptedOnly.getByLabel("Rule on").selectOption("helpful");
  await acceptedOnly.getByLabel("Comparison").selectOption(">=");
  await acceptedOnly.getByLabel("Value", { exact: true }).fill("4");
  await acceptedOnly.getByRole("button", { name: "Build dataset" }).click();
  const acceptedSummary = acceptedOnly.getByRole("status", { name: "Dataset" });
  await expect(acceptedSummary).toContainText("2 calls matched, 1 used (0 with a corrected reply)");
  await expect(acceptedSummary.getByRole("list", { name: "Left out" })).toContainText("1 left out: the annotation does not pass the rule");
  await acceptedOnly.getByLabel("Batch size").fill("1");
  await acceptedOnly.getByRole("button", { name: "Train on 1 example" }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  expect(page.url().split("/").at(-1)).not.toBe(jobId);
  const lineage = page.getByLabel("Lineage");
  await expect(lineage).toContainText("Judged answers (accepted items only)");
  const count = (label: string) => lineage.locator("div", { has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) }).locator("dd");
  await expect(count("matched")).toHaveText("2");
  await expect(count("used")).toHaveText("1");
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
});
