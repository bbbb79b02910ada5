// npm run worker: a training worker process — claims jobs from the PostgreSQL queue and trains
// them (ANNEAL_TRAINING_CONCURRENCY at once). Run as many as the machines allow; the embedded
// database has one owner (npm start), so workers need DATABASE_URL. A worker migrates the
// database on start, as a web process does (under the same advisory lock), so the processes of a
// deployment may start in any order.
import os from "node:os";
import { getEnv } from "@/lib/config/env";
import { ensureDataDirs } from "@/lib/config/paths";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { runnerSettingsFromEnv, TrainingRunner } from "@/lib/training/jobs/runner";
import { RlRunDriver, runDriverSettings } from "@/lib/training/rl-runs/run-driver";

async function main() {
  const env = getEnv();
  if (!env.DATABASE_URL) {
    throw new Error("npm run worker needs DATABASE_URL (PostgreSQL): the embedded database belongs to npm start, which trains jobs itself.");
  }
  ensureDataDirs();
  const applied = await migrate(getDatabase().sql);
  if (applied.length) console.log(`anneal worker: applied migrations: ${applied.join(", ")}`);
  const runner = new TrainingRunner(runnerSettingsFromEnv("worker"));
  await runner.start();
  const rlRuns = new RlRunDriver(runDriverSettings(runner.settings));
  rlRuns.start();
  console.log(`anneal worker ${runner.workerId}: training jobs (${runner.settings.concurrency} at a time) on ${os.hostname()}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`anneal worker: ${signal}: handing running jobs back to the queue`);
    await rlRuns.stop();
    await runner.stop();
    await closeDatabase();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch(async (error) => {
  console.error(`anneal worker: ${(error as Error).message}`);
  await closeDatabase().catch(() => undefined);
  process.exit(1);
});
