import { afterAll } from "vitest";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { resetEnvCache } from "@/lib/config/env";
import { closeDatabase } from "@/lib/db/client";
import { embeddedEngine } from "@/lib/inference/engine";

// Each test file gets its own connection (PostgreSQL) or in-memory copy (PGlite) of the migrated
// test database, opened lazily by getDb() and closed when the file ends.
process.env.ANNEAL_LOG_LEVEL ??= "error";
resetEnvCache();
afterAll(async () => {
  // Recorded calls are written behind the response: write them into this file's database, not
  // (after it is closed) into the next file's.
  await flushCalls();
  // The engine thread ends with its models freed, not torn down mid-decode when the file's process ends.
  await embeddedEngine().dispose();
  await closeDatabase();
});
