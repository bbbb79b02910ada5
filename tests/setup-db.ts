import { afterAll } from "vitest";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { resetEnvCache } from "@/lib/config/env";
import { closeDatabase } from "@/lib/db/client";
import { createScratchDatabase } from "@/lib/db/scratch-database";
import { embeddedEngine } from "@/lib/inference/engine";

// Each test file gets its own copy of the migrated test database (global-setup.ts): on PostgreSQL
// a database copied from the template, which the processes the file starts share through
// DATABASE_URL; on PGlite an in-memory copy. Opened lazily by getDb(), closed when the file ends.
process.env.ANNEAL_LOG_LEVEL ??= "error";
const template = process.env.ANNEAL_TEST_TEMPLATE_DATABASE_URL && new URL(process.env.ANNEAL_TEST_TEMPLATE_DATABASE_URL).pathname.slice(1);
// Copied through the server's own database: no one may be connected to a template while it is copied.
const fileDatabase = template ? await createScratchDatabase(process.env.TEST_DATABASE_URL!, template, { template }) : null;
if (fileDatabase) process.env.DATABASE_URL = fileDatabase.url;
resetEnvCache();
afterAll(async () => {
  // Recorded calls are written behind the response: write them into this file's database, not
  // (after it is closed) into the next file's.
  await flushCalls();
  // The engine thread ends with its models freed, not torn down mid-decode when the file's process ends.
  await embeddedEngine().dispose();
  await closeDatabase();
  await fileDatabase?.drop();
});
