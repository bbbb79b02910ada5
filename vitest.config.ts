import path from "node:path";
import { defineConfig } from "vitest/config";

// Three suites: `unit` (pure logic, engine math), `integration` (route handlers against a real
// database: in-memory PGlite by default, PostgreSQL when TEST_DATABASE_URL is set) and `topology`
// (the scaled deployment's processes on PostgreSQL, against the production build).
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
      {
        extends: true,
        test: {
          // Anneal's own processes (npm start, npm run worker) on PostgreSQL: after the production
          // build, with TEST_DATABASE_URL (scripts/test.mjs).
          name: "topology",
          include: ["tests/**/*.topology.test.ts"],
          // Each file runs a deployment of four processes: one at a time on a 2-core machine.
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
