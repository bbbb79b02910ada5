import { expect, type Page } from "@playwright/test";

// The playground's compare mode as the job and RL run pages open it: one message, answered by the
// checkpoint (column A) and the base model (column B), each request naming its model.

/** `timeout`: how long each answer may take (a base loaded for the first time on a busy machine is slow). */
export async function askSideBySide(page: Page, message: string, models: { checkpoint: string; base: string }, timeout?: number) {
  const bodies: { model?: string }[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/v1/chat/completions") && r.method() === "POST") bodies.push(r.postDataJSON() as { model?: string });
  });
  await page.getByLabel("Message", { exact: true }).fill(message);
  await page.keyboard.press("Control+Enter");
  const columnA = page.getByTestId("column-A");
  const columnB = page.getByTestId("column-B");
  await expect(columnA.getByTestId("run-usage")).toHaveText(/completion tokens/, { timeout });
  await expect(columnB.getByTestId("run-usage")).toHaveText(/completion tokens/, { timeout });
  await expect(columnA).toContainText(models.checkpoint);
  await expect(columnB).toContainText(models.base);
  expect(bodies.map((b) => b.model).sort()).toEqual([models.checkpoint, models.base].sort());
}
