import { expect, test, type APIRequestContext } from "@playwright/test";
import { adminAuth, signInAsAdmin } from "./session";

// The Models pages as an engineer uses them: create a model from the console, find it listed,
// open it; log trajectory groups from code and read them back as charts and transcripts; open
// the model in the playground; delete it. (No checkpoints exist without training: step 0, the
// base model, is the one to chat with.)

const MODEL = "e2e-agent";
const trajectory = (reward: number, answer: string) => ({
  messages_and_choices: [
    { role: "system", content: "Answer with a number." },
    { role: "user", content: "What is 2+2?" },
    { index: 0, finish_reason: "stop", message: { role: "assistant", content: answer } },
  ],
  reward,
  metrics: { correct: reward === 1 },
});

test("create a model, see logged groups as charts and transcripts, open it in the playground, delete it", async ({ page, request }) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page);
  await page.getByRole("link", { name: "Models" }).click();
  await expect(page).toHaveURL(/\/models$/);
  // The shipped bases are listed and trainable; tiny-chat-3 is the default a new model starts from.
  const baseRow = (name: RegExp) => page.getByRole("table", { name: "Base models" }).getByRole("row", { name });
  await expect(baseRow(/^anneal\/tiny-chat-3 default trainable/)).toBeVisible();
  await expect(baseRow(/^anneal\/tiny-chat-2 trainable/)).toBeVisible();
  await expect(baseRow(/^anneal\/tiny-chat trainable/)).toBeVisible();

  // Create from the console: the dialog offers trainable base models, the workspace's project.
  await page.getByRole("button", { name: "New model" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New model" });
  await expect(dialog.getByLabel("Base model")).toHaveValue("anneal/tiny-chat-3");
  await expect(dialog.getByRole("option", { name: /upstream/ })).toHaveCount(0); // serve-only
  await dialog.getByLabel("Name").fill(MODEL);
  await dialog.getByRole("button", { name: "Create model" }).click();
  // Creating opens the new model, and its page says where it lives.
  await expect(page).toHaveURL(/\/models\/[0-9a-f-]{36}\?created$/);
  await expect(page.getByRole("status").filter({ hasText: "Model created in project" })).toContainText("anneal/tiny-chat-3");
  await page.getByRole("link", { name: "Models" }).first().click();
  const row = page.getByRole("table", { name: "Trained models" }).getByRole("row", { name: new RegExp(MODEL) });
  await expect(row).toContainText("anneal/tiny-chat-3");

  // The same name again: the API's 409 lands on the Name field.
  await page.getByRole("button", { name: "New model" }).first().click();
  await dialog.getByLabel("Name").fill(MODEL);
  await dialog.getByRole("button", { name: "Create model" }).click();
  await expect(dialog.getByText(/exists; pass return_existing/)).toBeVisible();
  await expect(dialog.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await page.keyboard.press("Escape");

  // Its page: no metrics or groups yet, and it says how to log some.
  await row.getByRole("link", { name: MODEL, exact: true }).click();
  await expect(page).toHaveURL(/\/models\/[0-9a-f-]{36}$/);
  const modelId = page.url().split("/").at(-1)!;
  await expect(page.getByRole("heading", { level: 1 })).toContainText(MODEL);
  await expect(page.getByTestId("current-step")).toHaveText("0");
  await expect(page.getByText("No metrics yet")).toBeVisible();
  await expect(page.getByText("No trajectory groups logged yet")).toBeVisible();
  await expect(page.getByLabel("Log trajectory groups from code")).toContainText(`/v1/preview/models/${modelId}/log`);

  // A program logs rollouts with an API key, as ART's model.log() does.
  const model = await (await request.get(`/v1/preview/models/${modelId}`, { headers: adminAuth })).json();
  const name = `${model.entity}/${model.project}/${MODEL}`;
  const log = async (split: string, groups: unknown[]) => {
    const response = await request.post(`/v1/preview/models/${modelId}/log`, { headers: adminAuth, data: { split, trajectory_groups: groups } });
    expect(response.status()).toBe(200);
  };
  await log("val", [{ trajectories: [trajectory(1, "4"), trajectory(0, "5")] }, { trajectories: [trajectory(1, "4")] }]);
  await log("train", [{ trajectories: [trajectory(0.5, "four")] }]);

  await page.reload();
  await expect(page.getByRole("img", { name: "reward across jobs by step" })).toBeVisible();
  await page.getByLabel("Metric").selectOption("correct");
  await expect(page.getByRole("img", { name: "correct across jobs by step" })).toBeVisible();
  const groups = page.getByTestId("trajectory-group");
  await expect(groups).toHaveCount(3);
  await page.getByLabel("Filter by split").selectOption("val");
  await expect(groups).toHaveCount(2);
  await page.getByLabel("Filter by step").selectOption("0");
  await expect(groups).toHaveCount(2);

  // The older val group (listed last: newest first) holds the two answers.
  const group = groups.last();
  await expect(group).toContainText("reward mean 0.5");
  await group.getByRole("button").click();
  const first = group.getByRole("article", { name: "Trajectory 1" });
  await expect(first).toContainText("What is 2+2?");
  await expect(first.getByTestId("transcript-choice")).toContainText("4");
  await expect(first).toContainText("reward 1");
  await expect(group.getByRole("article", { name: "Trajectory 2" }).getByTestId("transcript-choice")).toContainText("5");

  // Step 0 serves the base model: open it in the playground by name.
  await expect(page.getByRole("table", { name: "Checkpoints" }).getByTestId("checkpoint-step-0")).toContainText("before any training");
  await page.getByTestId("checkpoint-step-0").getByRole("link", { name: /Open in playground/ }).click();
  await expect(page).toHaveURL(/\/playground\?model=/);
  const params = page.getByRole("complementary", { name: "Parameters" });
  await expect(params.getByLabel("Model")).toHaveValue(name);
  await expect(params.getByLabel("Checkpoint")).toHaveValue("0");

  // The header's "Open in playground": the model by name, i.e. its newest checkpoint.
  await page.goBack();
  await page.getByRole("link", { name: "Open in playground" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/playground\\?model=${encodeURIComponent(name)}$`));
  await expect(params.getByLabel("Model")).toHaveValue(name);
  await expect(params.getByLabel("Checkpoint")).toHaveValue("");

  // Delete it: back to the list, and it is gone.
  await page.goto(`/models/${modelId}`);
  await page.getByRole("button", { name: "Delete model" }).click();
  await page.getByRole("dialog", { name: `Delete “${MODEL}”?` }).getByRole("button", { name: "Delete model" }).click();
  await expect(page).toHaveURL(/\/models$/);
  // Other specs' models may share the workspace: this one's row is what must be gone.
  await expect(page.getByRole("row", { name: new RegExp(MODEL) })).toHaveCount(0);
  expect((await request.get(`/v1/preview/models/${modelId}`, { headers: adminAuth })).status()).toBe(404);
});

/** Waits for a job created through the API to succeed (the e2e server's own runner trains it). */
async function trained(request: APIRequestContext, path: string, data: Record<string, unknown>) {
  const created = await request.post(path, { headers: adminAuth, data });
  expect(created.status()).toBe(200);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await request.get(`/v1/preview/training-jobs/${id}`, { headers: adminAuth })).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe("succeeded");
  return id;
}

test("see a model learn across its jobs on one chart, and compare two of its checkpoints", async ({ page, request }) => {
  test.setTimeout(150_000);
  const created = await request.post("/v1/preview/models", { headers: adminAuth, data: { project: "default", name: "e2e-curve", base_model: "anneal/tiny-chat", return_existing: true } });
  const model = (await created.json()) as { id: string; entity: string; project: string; name: string };
  expect((await request.put("/v1/me/workspace", { headers: adminAuth, data: { team: model.entity, project: model.project } })).status()).toBe(200);
  const name = `${model.entity}/${model.project}/${model.name}`;
  const logVal = async (reward: number) => {
    const response = await request.post(`/v1/preview/models/${model.id}/log`, { headers: adminAuth, data: { split: "val", trajectory_groups: [{ trajectories: [trajectory(reward, "4")] }] } });
    expect(response.status()).toBe(200);
  };

  // Held-out reward before training, after an SFT job (2 steps) and after an RL job (1 step).
  await logVal(0.25);
  const training_data = ["Hi.", "Name?", "Who are you?", "Hello!"].map((prompt) => ({ messages: [{ role: "user", content: prompt }, { role: "assistant", content: "I am Anneal." }] }));
  const sft = await trained(request, "/v1/preview/sft-training-jobs", { model_id: model.id, training_data, config: { batch_size: 2 } });
  await logVal(0.5);
  const choice = (content: string) => ({ index: 0, finish_reason: "stop", message: { role: "assistant", content } });
  const group = { trajectories: [1, 0].map((reward) => ({ messages_and_choices: [{ role: "user", content: "Name?" }, choice(reward ? "I am Anneal." : "No.")], reward })) };
  const rl = await trained(request, "/v1/preview/training-jobs", { model_id: model.id, trajectory_groups: [group] });
  await logVal(0.75);

  // The model's page: reward across both jobs on one axis, each job's span named and linked.
  await signInAsAdmin(page);
  await page.goto(`/models/${model.id}`);
  await expect(page.getByRole("img", { name: "reward across jobs by step" })).toBeVisible();
  const jobs = page.getByRole("navigation", { name: "Jobs on this chart" }).getByTestId("curve-job");
  await expect(jobs).toHaveCount(2);
  await expect(jobs.first()).toHaveAccessibleName(new RegExp(`^SFT · ${sft.slice(-8)}: steps 1–\\d+, wrote checkpoint step 1$`));
  await expect(jobs.last()).toHaveAccessibleName(new RegExp(`^RL · ${rl.slice(-8)}: steps (\\d+)–\\1, wrote checkpoint step 2$`));
  await expect(page.getByLabel("Metric").locator("option[value=reward]")).toContainText("val/reward");
  await page.getByLabel("Metric").selectOption("loss");
  await expect(page.getByRole("img", { name: "loss across jobs by step" })).toBeVisible();
  await jobs.last().click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${rl}$`));

  // The playground: column B on the SFT job's checkpoint, picked from the list, beside the latest.
  await page.goto(`/playground?model=${encodeURIComponent(name)}`);
  await page.getByRole("button", { name: "Compare" }).click();
  const params = page.getByRole("complementary", { name: "Parameters" });
  await params.getByRole("tab", { name: "B" }).click();
  const picker = params.getByLabel("Checkpoint");
  await expect(picker).toHaveValue("");
  await expect(picker.locator("option")).toHaveText([
    "Latest (step 2)",
    new RegExp(`^step 2 · .+ · val/reward 0.75 · RL · ${rl.slice(-8)}$`),
    new RegExp(`^step 1 · .+ · val/reward 0.5 · SFT · ${sft.slice(-8)}$`),
    "step 0 · base model · val/reward 0.25",
  ]);
  await picker.selectOption("1");
  await expect(params.getByTestId("checkpoint-source")).toContainText(new RegExp(`^Written by SFT · ${sft.slice(-8)}, .+ · val/reward 0.5$`));
  await params.getByLabel("Max tokens").fill("8");
  await params.getByRole("tab", { name: "A" }).click();
  await params.getByLabel("Max tokens").fill("8");
  const bodies: { model?: string }[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/v1/chat/completions") && r.method() === "POST") bodies.push(r.postDataJSON() as { model?: string });
  });
  await page.getByLabel("Message", { exact: true }).fill("Who are you?");
  await page.keyboard.press("Control+Enter");
  await expect(page.getByTestId("column-B").getByTestId("run-usage")).toHaveText(/completion tokens/);
  await expect(page.getByTestId("column-A").getByTestId("run-usage")).toHaveText(/completion tokens/);
  await expect(page.getByTestId("column-B")).toContainText(`${name}:step1`);
  expect(bodies.map((b) => b.model).sort()).toEqual([name, `${name}:step1`]);
});

test("a model created in a new project opens at once, and its page says which project holds it", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/models");
  await page.getByRole("button", { name: "New model" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New model" });
  await dialog.getByLabel("Project").fill("e2e-new-project");
  await dialog.getByLabel("Name").fill("hi-bot");
  await dialog.getByRole("button", { name: "Create model" }).click();
  await expect(page).toHaveURL(/\/models\/[0-9a-f-]{36}\?created$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("e2e-new-project/hi-bot");
  await expect(page.getByRole("status").filter({ hasText: "Model created in project" })).toContainText(/Model created in project \S+\/e2e-new-project/);
});
