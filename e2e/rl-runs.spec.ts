import { expect, test } from "@playwright/test";
import { adminAuth, signInAsAdmin } from "./session";

// An RL run from the console, without code: on a model's page an engineer pastes prompts, picks a
// built-in checker (a regular expression: the reply is an even integer), sets group size and
// iterations, and starts it; the run's page shows the iterations and the reward curve as the
// server rolls out, trains and samples from each new checkpoint; the last checkpoint opens in the
// playground. Whether reward rises is the model's business: the curve shows what happened.

const PROMPTS = [
  { messages: [{ role: "user", content: "What is 357 + 981?" }], reference: "1338" },
  { messages: [{ role: "user", content: "What is 105 - 767?" }], reference: "-662" },
  { messages: [{ role: "user", content: "Compute 260 - 417." }], reference: "-157" },
  { messages: [{ role: "user", content: "548 + 928 =" }], reference: "1476" },
];

test("launch an RL run on a built-in checker, watch its iterations and reward, open the last checkpoint", async ({ page, request }) => {
  test.setTimeout(180_000);
  const created = await request.post("/v1/preview/models", { headers: adminAuth, data: { project: "default", name: "e2e-rl-run", base_model: "anneal/tiny-chat", return_existing: true } });
  expect(created.status()).toBe(200);
  const model = (await created.json()) as { id: string; entity: string; project: string; name: string };
  await signInAsAdmin(page);

  await page.goto(`/models/${model.id}`);
  await page.getByRole("button", { name: "Train", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Train e2e-rl-run" });
  await dialog.getByRole("tab", { name: "RL run: prompts + checker" }).click();

  // A checker the browser can already tell is incomplete is named on its field.
  await dialog.getByLabel("Prompts (JSONL)").fill(PROMPTS.map((p) => JSON.stringify(p)).join("\n"));
  await dialog.getByLabel("Reward checker").selectOption("regex");
  await dialog.getByRole("button", { name: "Start RL run" }).click();
  await expect(dialog.getByText("A regular expression, e.g. ^\\d+$")).toBeVisible();
  // One the server refuses (it does not compile) comes back on its field too.
  await dialog.getByLabel("Pattern").fill("[0-9");
  await dialog.getByRole("button", { name: "Start RL run" }).click();
  await expect(dialog.getByText(/Invalid regular expression/)).toBeVisible();

  await dialog.getByLabel("Pattern").fill("^-?\\d*[02468]$");
  await dialog.getByLabel("Group size").fill("6");
  await dialog.getByLabel("Iterations").fill("2");
  await dialog.getByLabel("Prompts per iteration").fill("2");
  await dialog.getByLabel("Max tokens").fill("12");
  const submitted = page.waitForRequest((r) => r.url().endsWith("/v1/preview/rl-runs") && r.method() === "POST");
  await dialog.getByRole("button", { name: "Start RL run" }).click();
  expect((await submitted).postDataJSON()).toMatchObject({
    model_id: model.id,
    prompts: { source: "inline", items: PROMPTS },
    checker: { type: "regex", pattern: "^-?\\d*[02468]$" },
    group_size: 6,
    iterations: 2,
    prompts_per_iteration: 2,
  });
  await expect(page).toHaveURL(/\/jobs\/rl-runs\/[0-9a-f-]{36}$/);
  const runId = page.url().split("/").at(-1)!;

  // The page follows the run live: an iteration row and a reward point per iteration.
  await expect(page.getByRole("heading", { level: 1 })).toContainText("RL run");
  await expect(page.getByTestId("iteration-row").first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded", { timeout: 150_000 });
  await expect(page.getByTestId("iteration-row")).toHaveCount(2);
  await expect(page.getByTestId("reward-curve")).toHaveAttribute("data-points", "2");
  await expect(page.getByRole("img", { name: "Reward by iteration" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Cancel run" })).toHaveCount(0);

  // What the page shows is what the API says: each iteration's reward, and its job's checkpoint.
  const run = (await (await request.get(`/v1/preview/rl-runs/${runId}`, { headers: adminAuth })).json()) as { history: { reward_mean: number; job_id: string | null; checkpoint_step: number | null }[] };
  const rows = page.getByTestId("iteration-row");
  for (const [i, h] of run.history.entries()) {
    await expect(rows.nth(i)).toContainText(new Intl.NumberFormat("en", { maximumFractionDigits: 3 }).format(h.reward_mean));
    if (h.job_id) await expect(rows.nth(i).getByRole("link", { name: `Job ${h.job_id}` })).toBeVisible();
  }

  // The Jobs page lists the run; the last checkpoint opens in the playground.
  await page.goto("/jobs");
  await expect(page.getByTestId("rl-run-row").filter({ has: page.locator(`a[href="/jobs/rl-runs/${runId}"]`) })).toContainText("succeeded");
  const step = run.history.findLast((h) => h.checkpoint_step !== null)?.checkpoint_step;
  expect(step, "an iteration whose groups all had equal rewards trains no job").toBeDefined();
  await page.goto(`/jobs/rl-runs/${runId}`);
  await page.getByRole("link", { name: `Open step ${step} in playground` }).click();
  const checkpoint = `${model.entity}/${model.project}/${model.name}:step${step}`;
  await expect(page).toHaveURL(new RegExp(`/playground\\?model=${encodeURIComponent(checkpoint)}`));
  await page.getByLabel("Message", { exact: true }).fill("What is 12 + 30?");
  const sent = page.waitForRequest((r) => r.url().endsWith("/v1/chat/completions") && r.method() === "POST");
  await page.keyboard.press("Control+Enter");
  expect((await sent).postDataJSON()).toMatchObject({ model: checkpoint });
  await expect(page.getByTestId("message-assistant").first().getByTestId("run-usage")).toHaveText(/completion tokens/);
});
