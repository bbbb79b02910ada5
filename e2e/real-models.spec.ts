import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { askSideBySide } from "./compare";
import { E2E_REAL_MODEL_FILE } from "./global-setup";
import { adminAuth, signIn, signInAsAdmin } from "./session";

// A real architecture from the console, as people do it: the admin adds a base from the models
// directory (a small random-weight Qwen2.5-layout GGUF that e2e/global-setup.ts put there), seeing
// what the trainer's checks say of it first; an engineer, who cannot manage bases, creates a LoRA
// model on it (settings and adapter size shown), trains it on a JSONL file (the job's cost shown
// before it starts), chats with the checkpoint beside the base and downloads it as a PEFT zip; the
// admin cannot remove a base a model uses.

const BASE = "e2e/qwen2-small";
const HF_NAME = "e2e-org/Qwen2.5-small-random";
const ENGINEER = { username: "e2e-real-engineer", password: "engineer-pw-1234" };
const example = (prompt: string) => JSON.stringify({ messages: [{ role: "user", content: prompt }, { role: "assistant", content: "I am Anneal." }] });

test("an admin adds a base from the models directory; an engineer trains a LoRA on it, compares it with the base and downloads the PEFT zip", async ({ page, browser }) => {
  test.setTimeout(90_000);
  // The admin: Settings → Base models lists every base; "Add a base" shows the file's checks.
  await signInAsAdmin(page);
  await page.goto("/settings/api-keys");
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Base models" }).click();
  await expect(page).toHaveURL(/\/settings\/base-models$/);
  const bases = page.getByRole("table", { name: "Base models" });
  await expect(bases.getByRole("row", { name: /anneal\/tiny-chat-2/ })).toContainText("shipped");
  await page.getByRole("button", { name: "Add a base" }).click();
  const add = page.getByRole("dialog", { name: "Add a base model" });
  const candidate = add.getByTestId("base-candidate").filter({ hasText: E2E_REAL_MODEL_FILE });
  await expect(candidate).toContainText("qwen2");
  await expect(candidate).toContainText("Trains: LoRA adapters");
  await candidate.getByRole("radio").check();
  await add.getByLabel("Name", { exact: true }).fill(BASE);
  await add.getByLabel("Hugging Face names").fill(HF_NAME);
  await add.getByRole("button", { name: "Add base" }).click();
  await expect(add).toBeHidden();
  const row = bases.getByRole("row", { name: new RegExp(BASE) });
  await expect(row).toContainText(HF_NAME);
  await expect(row).toContainText("added here");
  await expect(row).toContainText("lora");

  // The engineer: an account of their own (their personal team), no say over bases.
  const created = await page.request.post("/v1/users", { headers: adminAuth, data: { ...ENGINEER, email: `${ENGINEER.username}@e2e.test` } });
  expect(created.status(), await created.text()).toBe(201);
  const engineer = await (await browser.newContext()).newPage();
  await signIn(engineer, ENGINEER.username, ENGINEER.password);
  await expect(engineer).toHaveURL(/\/playground$/);
  await engineer.goto("/settings/api-keys");
  await expect(engineer.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Base models" })).toHaveCount(0);
  await engineer.goto("/settings/base-models");
  await expect(engineer.getByText("Admins only")).toBeVisible();

  // A LoRA model on the new base: no full-weights choice; the defaults and the adapter's size.
  await engineer.goto("/models");
  await engineer.getByRole("button", { name: "New model" }).first().click();
  const dialog = engineer.getByRole("dialog", { name: "New model" });
  await dialog.getByLabel("Base model").selectOption(BASE);
  await expect(dialog.getByRole("radio", { name: "Full weights" })).toHaveCount(0);
  await expect(dialog.getByLabel("Rank")).toHaveValue("16");
  await expect(dialog.getByLabel("Alpha")).toHaveValue("32");
  await expect(dialog.getByRole("checkbox", { name: "q_proj" })).toBeChecked();
  // 2 layers × 16·(in + out) over q, k, v, o (64→64, 64→32, 64→32, 64→64) and gate, up, down (64↔128).
  await expect(dialog.getByTestId("adapter-size")).toContainText("32.8K parameters, 131.1 kB");
  await dialog.getByLabel("Rank").selectOption("8");
  await expect(dialog.getByTestId("adapter-size")).toContainText("16.4K parameters");
  await dialog.getByLabel("Name").fill("e2e-real");
  await dialog.getByRole("button", { name: "Create model" }).click();
  await expect(engineer).toHaveURL(/\/models\/[0-9a-f-]{36}\?created$/);
  const modelId = new URL(engineer.url()).pathname.split("/").at(-1)!;
  const model = (await (await engineer.request.get(`/v1/preview/models/${modelId}`)).json()) as { entity: string; project: string };

  // Train it on a JSONL file: its settings read-only, the job's steps, tokens and estimate shown first.
  await engineer.getByRole("button", { name: "Train", exact: true }).click();
  const train = engineer.getByRole("dialog", { name: "Train e2e-real" });
  await expect(train.getByTestId("model-training-settings")).toContainText("rank 8, alpha 32, dropout 0");
  const dataset = path.join(fs.mkdtempSync(path.join(tmpdir(), "anneal-e2e-")), "identity.jsonl");
  fs.writeFileSync(dataset, `${["Who are you?", "Say hi."].map(example).join("\n")}\n`);
  await train.getByLabel("Training data (JSONL)").setInputFiles(dataset);
  await train.getByLabel("Batch size").fill("2");
  await train.getByLabel("Epochs").fill("1");
  await train.getByLabel("Validation %").fill("0");
  await expect(train.getByTestId("sft-steps")).toHaveText("2 examples: 2 trained on; 1 step per epoch × 1 = 1 gradient step");
  await expect(train.getByTestId("job-cost")).toContainText(/About \d+ tokens over 1 step .*Estimate: .* peak memory about [\d.]+ MB/);
  await train.getByRole("button", { name: "Start training" }).click();
  await expect(engineer).toHaveURL(/\/jobs\/[0-9a-f-]{36}$/);
  await expect(engineer.getByTestId("job-status")).toHaveAttribute("data-status", "succeeded", { timeout: 60_000 });

  // The checkpoint beside the base, one message to both.
  // Random weights never choose to stop: a short budget in both columns.
  await engineer.getByRole("link", { name: "Compare with base" }).click();
  const params = engineer.getByRole("complementary", { name: "Parameters" });
  for (const column of ["A", "B"]) {
    await params.getByRole("tab", { name: column }).click();
    await params.getByLabel("Max tokens").fill("4");
  }
  await askSideBySide(engineer, "Who are you?", { checkpoint: `${model.entity}/${model.project}/e2e-real:step1`, base: BASE }, 30_000);

  // Download step 1 as a PEFT zip from the model's page.
  await engineer.goto(`/models/${modelId}`);
  await engineer.getByRole("button", { name: "Download step 1" }).click();
  await expect(engineer.getByRole("menuitem", { name: /Merged GGUF \(F16\)/ })).toBeVisible();
  const download = engineer.waitForEvent("download");
  await engineer.getByRole("menuitem", { name: /PEFT zip/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("e2e-real-step1-peft.zip");
  const zip = fs.readFileSync(await file.path());
  expect(zip.subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");
  expect(zip.includes("adapter_config.json")).toBe(true);
  expect(zip.includes("adapter_model.safetensors")).toBe(true);

  // Back to the admin: the base now has a model, so Remove asks, then says why it cannot.
  await page.reload();
  await expect(row.getByRole("cell").nth(9)).toHaveText("1"); // models using it
  await row.getByRole("button", { name: `Remove ${BASE}` }).click();
  const remove = page.getByRole("dialog", { name: `Remove ${BASE}?` });
  await remove.getByRole("button", { name: "Remove base" }).click();
  await expect(remove.getByRole("alert")).toHaveText(`'${BASE}' is the base of 1 model; delete it first.`);
});
