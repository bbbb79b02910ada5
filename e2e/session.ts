import { expect, type Page } from "@playwright/test";
import { E2E_ADMIN, E2E_INIT_API_KEY } from "../playwright.config";

// What every journey starts with: signing in on the login page, and the admin's API key for calls
// made from code.

export const adminAuth = { authorization: `Bearer ${E2E_INIT_API_KEY}` };

/** Fills and submits the sign-in form (where it leads is the caller's to check). */
export async function signIn(page: Page, login: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(login);
  await page.getByLabel("Password").fill(password);
  await page.keyboard.press("Enter");
}

/** Signs the admin in and waits for the console's landing page. */
export async function signInAsAdmin(page: Page) {
  await signIn(page, E2E_ADMIN.username, E2E_ADMIN.password);
  await expect(page).toHaveURL(/\/playground$/);
}
