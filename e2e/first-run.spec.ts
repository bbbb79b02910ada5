import { expect, test } from "@playwright/test";
import { E2E_ADMIN } from "../playwright.config";

// What a fresh instance shows before anyone has signed in. Its own Playwright project, which every
// other spec depends on, so it runs first whatever the file order (the notice goes once the admin
// has signed in).

test("a fresh instance's sign-in page tells the admin how to sign in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
  const notice = page.getByRole("region", { name: "Welcome to your new Anneal" });
  await expect(notice).toContainText(E2E_ADMIN.username);
  await expect(notice).toContainText(E2E_ADMIN.email);
  await expect(notice).toContainText("ANNEAL_ADMIN_PASSWORD");
});
