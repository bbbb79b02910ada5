import { expect, test } from "@playwright/test";
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
  await expect(page.getByRole("table", { name: "Base models" }).getByRole("row", { name: /anneal\/tiny-chat/ })).toContainText("trainable");

  // Create from the console: the dialog offers trainable base models, the workspace's project.
  await page.getByRole("button", { name: "New model" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New model" });
  await expect(dialog.getByLabel("Base model")).toHaveValue("anneal/tiny-chat");
  await expect(dialog.getByRole("option", { name: /upstream/ })).toHaveCount(0); // serve-only
  await dialog.getByLabel("Name").fill(MODEL);
  await dialog.getByRole("button", { name: "Create model" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByRole("table", { name: "Trained models" }).getByRole("row", { name: new RegExp(MODEL) });
  await expect(row).toContainText("anneal/tiny-chat");

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
  await expect(page.getByRole("img", { name: "reward by step" })).toBeVisible();
  await expect(page.getByRole("img", { name: "correct by step" })).toBeVisible();
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
