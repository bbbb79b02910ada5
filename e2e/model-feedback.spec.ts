import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_INIT_API_KEY } from "../playwright.config";
import { adminAuth, signInAsAdmin } from "./session";

// Human feedback per checkpoint on a model's page, as an engineer reads it after training: the
// base model (step 0) and the first checkpoint served calls, people reacted and scored them, and
// the page shows each step's numbers side by side with the change from the step before.

const PROJECT = "e2e-checkpoint-feedback";
/** The feedback routes take Basic credentials (W&B Weave's), `api:<key>`. */
const basic = { authorization: `Basic ${Buffer.from(`api:${E2E_INIT_API_KEY}`).toString("base64")}` };

async function chat(request: APIRequestContext, project: string, model: string, content: string): Promise<string> {
  const response = await request.post("/v1/chat/completions", {
    headers: { ...adminAuth, "svc-project": project },
    data: { model, messages: [{ role: "user", content }], max_tokens: 6, seed: 1 },
  });
  expect(response.status(), await response.text()).toBe(200);
  return response.headers()["anneal-call-id"];
}

test("a model's page compares its checkpoints by the feedback on the calls each served", async ({ page, request }) => {
  test.setTimeout(120_000);
  const me = (await (await request.get("/v1/me", { headers: adminAuth })).json()) as { user: { username: string } };
  const team = me.user.username;
  const project = `${team}/${PROJECT}`;
  const created = await request.post("/v1/preview/models", { headers: adminAuth, data: { project: PROJECT, name: "judged", base_model: "anneal/tiny-chat" } });
  expect(created.status()).toBe(200);
  const model = (await created.json()) as { id: string };
  const name = `${project}/judged`;
  const spec = await request.post(`/v1/teams/${team}/projects/${PROJECT}/annotation-specs`, { headers: adminAuth, data: { name: "helpful", type: "numeric", min: 1, max: 5 } });
  expect(spec.status()).toBe(201);
  const specRef = ((await spec.json()) as { ref: string }).ref;

  // The base model serves one call; an SFT job writes step 1, which serves two.
  const base = await chat(request, project, `${name}:step0`, "Hi.");
  const training_data = ["Hi.", "Hello!"].map((prompt) => ({ messages: [{ role: "user", content: prompt }, { role: "assistant", content: "Hello, I am Anneal." }] }));
  const job = await request.post("/v1/preview/sft-training-jobs", { headers: adminAuth, data: { model_id: model.id, training_data, config: { batch_size: 2 } } });
  expect(job.status()).toBe(200);
  const jobId = ((await job.json()) as { id: string }).id;
  await expect
    .poll(async () => ((await (await request.get(`/v1/preview/training-jobs/${jobId}`, { headers: adminAuth })).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe("succeeded");
  const tuned = [await chat(request, project, `${name}:step1`, "Hi."), await chat(request, project, `${name}:step1`, "Hello!")];

  const feedback = async (callId: string, body: Record<string, unknown>) => {
    const response = await request.post("/feedback/create", { headers: basic, data: { project_id: project, svc_ref: `svc:///${project}/call/${callId}`, ...body } });
    expect(response.status(), await response.text()).toBe(200);
  };
  await feedback(base, { feedback_type: "wandb.reaction.1", payload: { emoji: "👎" } });
  await feedback(base, { feedback_type: "wandb.annotation.helpful", annotation_ref: specRef, payload: { value: 2 } });
  for (const call of tuned) await feedback(call, { feedback_type: "wandb.reaction.1", payload: { emoji: "👍" } });
  await feedback(tuned[0], { feedback_type: "wandb.annotation.helpful", annotation_ref: specRef, payload: { value: 4 } });
  await feedback(tuned[1], { feedback_type: "wandb.annotation.helpful", annotation_ref: specRef, payload: { value: 5 } });

  // The embedded database records calls behind the responses (within a second): read the page once
  // they are in the call log, as a busy machine may take longer.
  for (const call of [base, ...tuned]) {
    await expect.poll(async () => (await request.get(`/v1/calls/${call}`, { headers: adminAuth })).status(), { timeout: 15_000 }).toBe(200);
  }
  await signInAsAdmin(page);
  await page.goto(`/models/${model.id}`);
  const table = page.getByRole("table", { name: "Human feedback per checkpoint" });
  await expect(table.getByRole("columnheader")).toHaveText(["Step", "Calls", "Judged", "Feedback", "Thumbs up", "helpful mean"]);
  const step = (n: number) => table.getByTestId("checkpoint-feedback-row").and(page.locator(`[data-step="${n}"]`));
  // Newest first: step 1 reads against step 0.
  await expect(table.getByTestId("checkpoint-feedback-row").first()).toHaveAttribute("data-step", "1");
  await expect(step(1).getByRole("cell")).toHaveText(["1", "2", "2", "4", "100% (2 👍 · 0 👎)+100 pts vs 0", "4.50 (n=2)+2.50 vs 0"]);
  await expect(step(0).getByRole("cell")).toHaveText(["0base", "1", "1", "2", "0% (0 👍 · 1 👎)", "2.00 (n=1)"]);

  // The calls count opens the call log on that checkpoint's calls.
  await step(1).getByRole("link", { name: "2 calls served by step 1" }).click();
  await expect(page).toHaveURL(new RegExp(`/calls\\?(.*&)?model=${encodeURIComponent(`${name}:step1`)}(&|$)`));
});
