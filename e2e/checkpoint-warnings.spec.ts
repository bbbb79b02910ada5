import { expect, test } from "@playwright/test";
import { adminAuth, signInAsAdmin } from "./session";

// A job that flagged its checkpoint (far too high a learning rate on a small file) as an engineer
// meets it later: its warnings beside the checkpoint on the model page and in the playground's
// checkpoint picker, and the checkpoint's numbers named for what they are — the best epoch's
// val/loss (not the job's last), train/loss as the mean over the job's steps (not the last step's).

const example = (a: number, b: number) => ({ messages: [{ role: "user", content: `What is ${a} + ${b}?` }, { role: "assistant", content: `<answer>${a + b}</answer>` }] });

test("a flagged job's warnings show wherever its checkpoint can be picked, with its numbers labelled", async ({ page, request }) => {
  test.setTimeout(300_000);
  const created = await request.post("/v1/preview/models", { headers: adminAuth, data: { project: "default", name: `e2e-warned-${Date.now()}`, base_model: "anneal/tiny-chat" } });
  expect(created.status()).toBe(200);
  const model = (await created.json()) as { id: string; entity: string; project: string; name: string };
  expect((await request.put("/v1/me/workspace", { headers: adminAuth, data: { team: model.entity, project: model.project } })).status()).toBe(200);
  const training_data = Array.from({ length: 16 }, (_, i) => example(i, 2 * i + 1));
  const submitted = await request.post("/v1/preview/sft-training-jobs", {
    headers: adminAuth,
    data: { model_id: model.id, training_data, config: { batch_size: 4, learning_rate: 0.1, epochs: 2, validation_fraction: 0.25 } },
  });
  expect(submitted.status()).toBe(200);
  const { id } = (await submitted.json()) as { id: string };
  const job = async () => (await (await request.get(`/v1/preview/training-jobs/${id}`, { headers: adminAuth })).json()) as { status: string; warnings: { code: string; message: string }[] };
  await expect.poll(async () => (await job()).status, { timeout: 180_000 }).toBe("succeeded");
  const { warnings } = await job();
  expect(warnings.length).toBeGreaterThan(0);

  // The model page: step 1's row lists the job's warnings and names its numbers.
  await signInAsAdmin(page);
  await page.goto(`/models/${model.id}`);
  const row = page.getByRole("table", { name: "Checkpoints" }).getByRole("row").filter({ has: page.getByLabel("Select step 1") });
  const rowWarnings = row.getByTestId("checkpoint-warnings");
  // The warnings come with the model's learning curve (slow on a loaded machine).
  await expect(rowWarnings.getByRole("listitem")).toHaveText(warnings.map((w) => w.message), { timeout: 30_000 });
  await expect(row).toContainText(/best epoch val\/loss \d/);
  await expect(row).toContainText(/mean train\/loss over the job's steps \d/);

  // The playground: the picker's option says the job warned, and choosing it lists the warnings.
  await page.goto(`/playground?model=${encodeURIComponent(`${model.entity}/${model.project}/${model.name}`)}`);
  const params = page.getByRole("complementary", { name: "Parameters" });
  const picker = params.getByLabel("Checkpoint");
  const count = `${warnings.length} warning${warnings.length === 1 ? "" : "s"}`;
  await expect(picker.locator("option[value='1']")).toHaveText(new RegExp(`^step 1 · .+ · best epoch val/loss [\\d.]+ · SFT · ${id.slice(-8)} · ⚠ ${count}$`), { timeout: 30_000 });
  await picker.selectOption("1");
  await expect(params.getByTestId("checkpoint-source")).toContainText("best epoch val/loss");
  await expect(params.getByTestId("checkpoint-warnings").getByRole("listitem")).toHaveText(warnings.map((w) => w.message));
});
