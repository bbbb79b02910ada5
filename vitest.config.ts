import path from "node:path";
import { defineConfig } from "vitest/config";

// Two suites: `unit` (pure logic, engine math) and `integration` (route handlers against a real
// database: in-memory PGlite by default, PostgreSQL when TEST_DATABASE_URL is set).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "scripts/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "node_modules/**"],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["**/*.int.test.ts"],
          exclude: ["node_modules/**", ".next/**"],
          globalSetup: ["./tests/global-setup.ts"],
          setupFiles: ["./tests/setup-db.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
