import { defineConfig } from "@playwright/test";

// E2E against the built app, started exactly as a user starts it (scripts/start.ts = npm start),
// on a fresh embedded database, in Debian's Chromium (Playwright's own browser download is
// unavailable offline).

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3199);
export const E2E_ADMIN = { email: "admin@e2e.test", password: "e2e-admin-password", username: "admin" };
export const E2E_INIT_API_KEY = "e2e-init-key-0123456789abcdefghij";
/** A second Anneal instance, registered in the first as the upstream of `upstream/tiny-chat`. */
export const E2E_UPSTREAM = { port: 3198, key: "e2e-upstream-key-0123456789abcdefghij" };
/** The instance under test's ANNEAL_DATA_DIR (its models directory is `models/` in it: e2e/global-setup.ts). */
export const E2E_DATA_DIR = ".e2e-data";

const startFresh = (dataDir: string) =>
  `node -e "require('fs').rmSync('${dataDir}', {recursive: true, force: true})" && node_modules/.bin/tsx scripts/start.ts`;

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  // The first-run screen is checked before any journey signs in (e2e/first-run.spec.ts).
  projects: [
    { name: "first-run", testMatch: /first-run\.spec\.ts$/ },
    { name: "journeys", testIgnore: /first-run\.spec\.ts$/, dependencies: ["first-run"] },
  ],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [["list"], ["json", { outputFile: ".test-results/e2e.json" }]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    viewport: { width: 1280, height: 800 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
  outputDir: ".test-results/e2e-artifacts",
  // Started in order: the upstream first (it builds the app if needed), then the instance under test.
  webServer: [
    {
      command: startFresh(`${E2E_DATA_DIR}-upstream`),
      url: `http://127.0.0.1:${E2E_UPSTREAM.port}/v1/health`,
      timeout: 240_000,
      reuseExistingServer: false,
      env: { PORT: String(E2E_UPSTREAM.port), HOST: "127.0.0.1", ANNEAL_DATA_DIR: `${E2E_DATA_DIR}-upstream`, ANNEAL_INIT_API_KEY: E2E_UPSTREAM.key, DATABASE_URL: "" },
    },
    {
      command: startFresh(E2E_DATA_DIR),
      url: `http://127.0.0.1:${E2E_PORT}/v1/health`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: "pipe",
      env: {
        PORT: String(E2E_PORT),
        HOST: "127.0.0.1",
        ANNEAL_DATA_DIR: E2E_DATA_DIR,
        ANNEAL_ADMIN_EMAIL: E2E_ADMIN.email,
        ANNEAL_ADMIN_PASSWORD: E2E_ADMIN.password,
        ANNEAL_INIT_API_KEY: E2E_INIT_API_KEY,
        ANNEAL_MODELS_FILE: "e2e/fixtures/upstream-models.json",
        E2E_UPSTREAM_KEY: E2E_UPSTREAM.key,
        DATABASE_URL: "",
      },
    },
  ],
});
