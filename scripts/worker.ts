// npm run worker: a training worker process. Two kinds:
// - with DATABASE_URL: claims jobs from the PostgreSQL queue and trains them (ANNEAL_TRAINING_CONCURRENCY
//   at once). Run as many as the machines allow; the embedded database has one owner (npm start), so
//   workers need DATABASE_URL. A worker migrates the database on start, as a web process does (under
//   the same advisory lock), so the processes of a deployment may start in any order.
// - with `--server <url> --key <worker key>` (or ANNEAL_WORKER_SERVER / ANNEAL_WORKER_KEY): a remote
//   worker (docs/workers.md) that reaches Anneal over HTTP only, with no database and its own
//   ANNEAL_DATA_DIR for downloads and states.
import os from "node:os";
import { parseArgs } from "node:util";
import { getEnv } from "@/lib/config/env";
import { ensureDataDirs } from "@/lib/config/paths";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { runnerSettingsFromEnv, TrainingRunner } from "@/lib/training/jobs/runner";
import { RlRunDriver, runDriverSettings } from "@/lib/training/rl-runs/run-driver";
import { RemoteWorker } from "@/lib/workers/remote/remote-worker";

/** Stops the worker once, on SIGINT or SIGTERM, then exits. */
function onSignals(stop: () => Promise<void>, what: string): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`anneal worker: ${signal}: ${what}`);
    void stop().finally(() => process.exit(0));
  };
  process.on("SIGINT", () => handle("SIGINT"));
  process.on("SIGTERM", () => handle("SIGTERM"));
}

async function databaseWorker() {
  const env = getEnv();
  if (!env.DATABASE_URL) {
    throw new Error("npm run worker needs DATABASE_URL (PostgreSQL): the embedded database belongs to npm start, which trains jobs itself. A worker without a database: npm run worker -- --server <url> --key <worker key>.");
  }
  ensureDataDirs();
  const applied = await migrate(getDatabase().sql);
  if (applied.length) console.log(`anneal worker: applied migrations: ${applied.join(", ")}`);
  const runner = new TrainingRunner(runnerSettingsFromEnv("worker"));
  await runner.start();
  const rlRuns = new RlRunDriver(runDriverSettings(runner.settings));
  rlRuns.start();
  onSignals(async () => {
    await rlRuns.stop();
    await runner.stop();
    await closeDatabase();
  }, "handing running jobs back to the queue");
  // Printed once the handlers are in: whoever waits for this line may signal at once.
  console.log(`anneal worker ${runner.workerId}: training jobs (${runner.settings.concurrency} at a time) on ${os.hostname()}`);
}

function remoteWorker(server: string, key: string) {
  const worker = new RemoteWorker(server, key);
  worker.start().catch((error: Error) => {
    console.error(`anneal worker: ${error.message}`);
    process.exit(1);
  });
  onSignals(() => worker.stop(getEnv().ANNEAL_SHUTDOWN_DRAIN_MS), "saving the running job's state and handing it back");
  console.log(`anneal worker ${worker.instance}: training jobs from ${server} (bases: ${worker.bases.join(", ") || "none"})`);
}

async function main() {
  const { values } = parseArgs({ options: { server: { type: "string" }, key: { type: "string" } } });
  const env = getEnv();
  const server = values.server ?? env.ANNEAL_WORKER_SERVER;
  const key = values.key ?? env.ANNEAL_WORKER_KEY;
  if (!server !== !key) throw new Error("A remote worker needs both --server <url> and --key <worker key> (or ANNEAL_WORKER_SERVER and ANNEAL_WORKER_KEY).");
  if (server && key) remoteWorker(server, key);
  else await databaseWorker();
}

main().catch(async (error) => {
  console.error(`anneal worker: ${(error as Error).message}`);
  await closeDatabase().catch(() => undefined);
  process.exit(1);
});
