import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { askSideBySide } from "./compare";
import { adminAuth, signInAsAdmin } from "./session";

// Training from the console as an engineer does it: upload a small JSONL on a model's page and
// start an SFT job, watch its monitor go to succeeded live (progress, loss chart, events), chat
// with the new checkpoint, and compare it side by side with the base model. And cancelling a
// long job from its monitor. The server is a real `npm start`: its embedded runner trains.

async function createModel(request: APIRequestContext, name: string) {
  const response = await request.post("/v1/preview/models", { headers: adminAuth, data: { project: "default", name, base_model: "anneal/tiny-chat", return_existing: true } });
  expect(response.status()).toBe(200);
  const model = (await response.json()) as { id: string; entity: string; project: string; name: string };
  // The console lists the workspace team's models; other specs may have switched it (it is saved).
  const workspace = await request.put("/v1/me/workspace", { headers: adminAuth, data: { team: model.entity, project: model.project } });
  expect(workspace.status()).toBe(200);
  return model;
}

const PROMPTS = ["Who are you?", "What is your name?", "Say hi.", "Hello!", "Introduce yourself.", "Name?", "Who is this?", "Hi there."];
const example = (prompt: string) => JSON.stringify({ messages: [{ role: "user", content: prompt }, { role: "assistant", content: "I am Anneal." }] });

function writeDataset(name: string, lines: string[]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "anneal-e2e-")), name);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

test("train a model from an uploaded JSONL, watch it succeed, chat with the checkpoint and compare it with the base", async ({ page, request }) => {
  test.setTimeout(120_000);
  const model = await createModel(request, "e2e-sft");
  await signInAsAdmin(page);

  await page.goto(`/models/${model.id}`);
  await expect(page.locator("[data-slot=model-jobs]")).toContainText("No jobs yet");
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Train e2e-sft" });
  await expect(dialog.getByRole("tab", { name: "SFT: JSONL file" })).toHaveAttribute("aria-selected", "true");

  // A broken line: the API's 400 names the file and line, shown on the form; nothing starts.
  await dialog.getByLabel("Training data (JSONL)").setInputFiles(writeDataset("broken.jsonl", [example("Hi"), "{not json"]));
  await dialog.getByLabel("Batch size").fill("2");
  await dialog.getByRole("button", { name: "Start training" }).click();
  await expect(dialog.getByRole("alert")).toContainText(/file broken\.jsonl \(.*\), line 2: not valid JSON/);
  await expect(page).toHaveURL(/\/models\//);

  // A bad batch size is named on its field before anything is sent.
  await dialog.getByLabel("Batch size").fill("0");
  await dialog.getByRole("button", { name: "Start training" }).click();
  await expect(dialog.getByText("A whole number, at least 1.")).toBeVisible();

  // The real dataset: 8 examples. The form counts the gradient steps (the console's defaults:
  // 3 epochs, 10% held out for validation) and shows what the first example trains on.
  await dialog.getByLabel("Training data (JSONL)").setInputFiles(writeDataset("identity.jsonl", PROMPTS.map(example)));
  await dialog.getByLabel("Batch size").fill("2");
  await expect(dialog.getByTestId("sft-steps")).toHaveText("8 examples: 7 trained on, 1 held out for validation; 4 steps per epoch × 3 = 12 gradient steps");
  await expect(dialog.getByTestId("sft-preview").locator("[data-trained=true]")).toHaveText("assistantI am Anneal.");
  await expect(dialog.getByTestId("sft-preview").locator("[data-trained=false]")).toHaveText("userWho are you?");
  // One pass over all of them: batches of 2 → 4 gradient steps.
  await dialog.getByLabel("Epochs").fill("1");
  await dialog.getByLabel("Validation %").fill("0");
  await expect(dialog.getByTestId("sft-steps")).toHaveText("8 examples: 8 trained on; 4 steps per epoch × 1 = 4 gradient steps");
  await dialog.getByRole("button", { name: "Start training" }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  const jobId = page.url().split("/").at(-1)!;

  // The monitor follows the job to the end without a reload.
  await expect(page.getByRole("heading", { level: 1 })).toContainText("SFT job");
  await expect(page.getByRole("progressbar", { name: "Training progress" })).toBeVisible();
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });
  await expect(page.getByTestId("job-steps")).toHaveText("Step 4 of 4");
  await expect(page.getByRole("progressbar", { name: "Training progress" })).toHaveAttribute("aria-valuenow", "4");
  await expect(page.getByRole("img", { name: "loss by step" })).toBeVisible();
  await expect(page.getByRole("img", { name: "grad_norm by step" })).toBeVisible();
  const events = page.getByTestId("job-event");
  await expect(events).toHaveCount(6); // training_started, 4 × gradient_step, training_ended
  await expect(events.last()).toHaveAttribute("data-type", "training_ended");
  await expect(page.getByTestId("job-config")).toContainText('"batch_size": 2');
  await expect(page.getByRole("button", { name: "Cancel job" })).toHaveCount(0);

  // The Jobs page and the model's page list it.
  await page.goto("/jobs");
  const row = page.getByTestId("job-row").filter({ has: page.locator(`a[href="/jobs/${jobId}"]`) });
  await expect(row).toContainText("succeeded");
  await expect(row).toContainText("e2e-sft");
  await expect(row).toContainText("4/4");
  await page.getByLabel("Filter by status").selectOption("failed");
  await expect(page.getByText("No jobs match these filters.")).toBeVisible();
  await page.goto(`/models/${model.id}`);
  await expect(page.getByTestId("current-step")).toHaveText("1");
  await expect(page.locator("[data-slot=model-jobs]").getByTestId("job-row")).toHaveCount(1);

  // Chat with the new checkpoint.
  await page.goto(`/jobs/${jobId}`);
  await page.getByRole("link", { name: "Open step 1 in playground" }).click();
  const checkpoint = `${model.entity}/${model.project}/${model.name}:step1`;
  await expect(page).toHaveURL(new RegExp(`/playground\\?model=${encodeURIComponent(checkpoint)}`));
  await page.getByLabel("Message", { exact: true }).fill("Who are you?");
  const sent = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions") && r.method() === "POST");
  await page.keyboard.press("Control+Enter");
  expect((await sent).postDataJSON()).toMatchObject({ model: checkpoint });
  await expect(page.getByTestId("message-assistant").first().getByTestId("run-usage")).toHaveText(/completion tokens/);

  // Side by side with the base model.
  await page.goto(`/jobs/${jobId}`);
  await page.getByRole("link", { name: "Compare with base" }).click();
  await expect(page.getByRole("button", { name: "Compare" })).toHaveAttribute("aria-pressed", "true");
  await askSideBySide(page, "Who are you?", { checkpoint, base: "anneal/tiny-chat" });
});

test("train on recorded calls picked in a table", async ({ page, request }) => {
  test.setTimeout(60_000);
  const model = await createModel(request, "e2e-calls");
  // A program's chat completions are recorded as calls of its project.
  for (const content of ["Name a colour.", "Name a fruit."]) {
    const response = await request.post("/v1/chat/completions", { headers: adminAuth, data: { model: "anneal/tiny-chat", messages: [{ role: "user", content }], max_tokens: 6 } });
    expect(response.status()).toBe(200);
  }
  await signInAsAdmin(page);
  await page.goto("/jobs");
  await page.getByRole("button", { name: "New job" }).click();
  const dialog = page.getByRole("dialog", { name: "New training job" });
  await dialog.getByLabel("Model").selectOption({ label: `${model.entity}/${model.project}/${model.name}` });
  await dialog.getByRole("tab", { name: "SFT: recorded calls" }).click();
  await dialog.getByLabel("Served by").selectOption("anneal/tiny-chat");
  const calls = dialog.getByRole("table", { name: "Recorded calls" });
  await expect(calls.getByRole("row", { name: /Name a colour\./ })).toBeVisible();
  await calls.getByRole("row", { name: /Name a colour\./ }).getByRole("checkbox").check();
  await calls.getByRole("row", { name: /Name a fruit\./ }).getByRole("checkbox").check();
  await dialog.getByLabel("Epochs").fill("1");
  await dialog.getByLabel("Validation %").fill("0");
  await expect(dialog.getByTestId("sft-steps")).toHaveText("2 examples: 2 trained on; 1 step per epoch × 1 = 1 gradient step");
  const submitted = page.waitForRequest((r) => r.url().endsWith("/v1/preview/sft-training-jobs") && r.method() === "POST");
  await dialog.getByRole("button", { name: "Train on 2 calls" }).click();
  const body = (await submitted).postDataJSON() as { model_id: string; training_data: { messages: { role: string; content: string }[] }[] };
  expect(body.model_id).toBe(model.id);
  expect(body.training_data.map((e) => e.messages.map((m) => m.role))).toEqual([["user", "assistant"], ["user", "assistant"]]);
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  await expect(page.getByTestId("job-steps")).toHaveText("Step 1 of 1");
});

test("a small SFT job (40 examples) launched with the console's defaults learns the new format or is flagged on its page", async ({ page, request }) => {
  test.setTimeout(240_000);
  const model = await createModel(request, "e2e-sft-small");
  await signInAsAdmin(page);
  await page.goto(`/models/${model.id}`);
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Train e2e-sft-small" });
  const sums = Array.from({ length: 40 }, (_, i) => [3 + i, 11 + ((i * 7) % 50)] as const);
  const lines = sums.map(([a, b]) => JSON.stringify({ messages: [{ role: "user", content: `What is ${a} + ${b}?` }, { role: "assistant", content: `<answer>${a + b}</answer>` }] }));
  await dialog.getByLabel("Training data (JSONL)").setInputFiles(writeDataset("tags.jsonl", lines));
  await expect(dialog.getByTestId("sft-steps")).toHaveText("40 examples: 36 trained on, 4 held out for validation; 18 steps per epoch × 3 = 54 gradient steps");
  await dialog.getByRole("button", { name: "Start training" }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded", { timeout: 200_000 });
  await expect(page.getByRole("img", { name: "val/loss by step" })).toBeVisible();
  // Replies to the held-out prompts before and after: either all in the new format, or the page says what went wrong.
  const after = page.getByTestId("sample-replies").locator("tbody tr td:nth-child(4)");
  await expect(after).toHaveCount(4);
  const replies = await after.allTextContents();
  const learned = replies.every((r) => /^<answer>\d+<\/answer>$/.test(r.trim()));
  if (!learned) await expect(page.getByTestId("job-warnings")).toBeVisible();
});

test("run RL on logged trajectory groups picked by split", async ({ page, request }) => {
  test.setTimeout(60_000);
  const model = await createModel(request, "e2e-rl");
  // Rollouts as ART logs them: the model's answers as chat completion Choices, with rewards.
  const choice = (content: string) => ({ index: 0, finish_reason: "stop", message: { role: "assistant", content } });
  const group = (prompt: string) => ({
    trajectories: [
      { messages_and_choices: [{ role: "user", content: prompt }, choice("I am Anneal.")], reward: 1 },
      { messages_and_choices: [{ role: "user", content: prompt }, choice("No idea.")], reward: 0 },
    ],
  });
  const logged = await request.post(`/v1/preview/models/${model.id}/log`, { headers: adminAuth, data: { split: "train", trajectory_groups: [group("Who are you?"), group("Name?")] } });
  expect(logged.status()).toBe(200);

  await signInAsAdmin(page);
  await page.goto(`/models/${model.id}`);
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Train e2e-rl" });
  await dialog.getByRole("tab", { name: "RL: trajectory groups" }).click();
  await expect(dialog.getByLabel("Split")).toHaveValue("train");
  const groups = dialog.getByRole("table", { name: "Trajectory groups" });
  await expect(groups.getByRole("row")).toHaveCount(3); // header + 2 groups
  await dialog.getByRole("checkbox", { name: "Pick every group shown" }).check();
  await dialog.getByRole("button", { name: "Train on 2 groups" }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("RL job");
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded", { timeout: 30_000 });
  await expect(page.getByRole("link", { name: "Open step 1 in playground" })).toBeVisible();
});

test("cancel a running job from its monitor", async ({ page, request }) => {
  test.setTimeout(90_000);
  const model = await createModel(request, "e2e-cancel");
  // 2000 examples one per step: minutes of work, so the cancel (seen within a 5 s heartbeat) lands mid-run.
  const training_data = Array.from({ length: 2000 }, (_, i) => ({ messages: [{ role: "user", content: PROMPTS[i % PROMPTS.length] }, { role: "assistant", content: "I am Anneal." }] }));
  const created = await request.post("/v1/preview/sft-training-jobs", { headers: adminAuth, data: { model_id: model.id, training_data, config: { batch_size: 1 } } });
  expect(created.status()).toBe(200);
  const { id } = (await created.json()) as { id: string };

  await signInAsAdmin(page);
  await page.goto(`/jobs/${id}`);
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "running", { timeout: 30_000 });
  await expect(page.getByRole("img", { name: "loss by step" })).toBeVisible(); // steps are arriving
  await page.getByRole("button", { name: "Cancel job" }).click();
  const confirm = page.getByRole("dialog", { name: "Cancel this job?" });
  await confirm.getByRole("button", { name: "Cancel job" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "cancelled", { timeout: 30_000 });
  await expect(page.getByText(/Cancelled/).first()).toBeVisible();
  await expect(page.getByTestId("job-event").last()).toHaveAttribute("data-type", "training_failed");
  const job = await (await request.get(`/v1/preview/training-jobs/${id}`, { headers: adminAuth })).json();
  expect(job).toMatchObject({ status: "cancelled", checkpoint_step: null });
  expect(job.steps_done).toBeLessThan(2000);
});

test("a LoRA model: created in the console with its settings, trained from its page, its adapter chatted with", async ({ page }) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page);
  await page.goto("/models");
  await page.getByRole("button", { name: "New model" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New model" });
  await dialog.getByLabel("Name").fill("e2e-lora");
  await dialog.getByRole("radio", { name: "Adapter (LoRA)" }).click();
  await dialog.getByLabel("Rank").selectOption("8");
  // Out of range: the API's 422 lands on the field; nothing is created.
  await dialog.getByLabel("Dropout").fill("0.9");
  await dialog.getByRole("button", { name: "Create model" }).click();
  await expect(dialog.getByLabel("Dropout")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Dropout").fill("0.05");
  await dialog.getByRole("button", { name: "Create model" }).click();
  await expect(page).toHaveURL(/\/models\/[0-9a-f-]{36}\?created$/);
  await expect(page.getByTestId("training-mode")).toHaveText("LoRA · rank 8, alpha 32");

  await page.getByRole("button", { name: "Train", exact: true }).click();
  const train = page.getByRole("dialog", { name: "Train e2e-lora" });
  await train.getByLabel("Training data (JSONL)").setInputFiles(writeDataset("identity.jsonl", PROMPTS.map(example)));
  await train.getByLabel("Batch size").fill("2");
  await train.getByLabel("Epochs").fill("1");
  await train.getByLabel("Validation %").fill("0");
  await train.getByRole("button", { name: "Start training" }).click();
  await expect(page).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });

  await page.getByRole("link", { name: "Open step 1 in playground" }).click();
  await expect(page).toHaveURL(/model=.*e2e-lora%3Astep1/);
  await page.getByLabel("Message", { exact: true }).fill("Who are you?");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("message-assistant").first().getByTestId("run-usage")).toHaveText(/completion tokens/);
});
