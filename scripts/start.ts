// npm start: check the installation, build if needed, open the database, migrate, initialise, and
// serve the API and the console from this one process (it owns the embedded database). Each phase
// prints a line with the seconds since the start (the first start builds for minutes).
import path from "node:path";
import { bootstrapInstance } from "@/lib/auth/bootstrap";
import { flushCalls } from "@/lib/call-log/call-recorder";
import { dataDir, getEnv } from "@/lib/config/env";
import { ensureDataDirs } from "@/lib/config/paths";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { baseModelCatalogue, configuredBaseModels } from "@/lib/inference/base-models";
import { embeddedEngine } from "@/lib/inference/engine";
import { runnerSettingsFromEnv, TrainingRunner } from "@/lib/training/jobs/runner";
import { RlRunDriver, runDriverSettings } from "@/lib/training/rl-runs/run-driver";
import { buildApp, buildIsCurrent } from "./lib/build";
import { checkInstallation } from "./lib/install-check";
import { serveNext } from "./lib/serve";
import { describeStartup } from "./lib/startup-banner";
import { StartupProgress } from "./lib/startup-progress";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
process.env.NEXT_TELEMETRY_DISABLED = "1";
// Without NEXTAUTH_URL, next-auth builds its URLs from the request's host (not localhost:3000).
if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST ??= "true";

async function main() {
  const progress = new StartupProgress();
  progress.step("checking the installation");
  for (const warning of checkInstallation(root)) console.warn(`anneal: warning: ${warning}`);
  const env = getEnv();
  progress.step("checking the base models");
  // A listing it refuses (a file marked trainable that the trainer cannot read, two entries claiming one
  // name) stops the start; the database's bases are read per request.
  configuredBaseModels();
  ensureDataDirs(); // ANNEAL_MODELS_DIR included
  progress.step("opening the database");
  const db = getDatabase(); // before the build, so a second instance is refused before a long build
  if (buildIsCurrent(root)) progress.step("the build is current");
  else await buildApp(root, progress);

  progress.step("migrating the database");
  const applied = await migrate(db.sql);
  if (applied.length) progress.step(`applied migrations: ${applied.join(", ")}`);
  progress.step("initialising the instance");
  const report = await bootstrapInstance(env);
  for (const base of (await baseModelCatalogue()).shadowed) {
    console.warn(`anneal: warning: the base model '${base.name}' added through the API is not served: a shipped or models-file base has its name or one of its hf_names`);
  }

  progress.step("starting the web server");
  const server = await serveNext({ root, host: env.HOST, port: env.PORT });
  // The engine thread starts now, not on the first chat completion (~1 s); a failure does not stop
  // the start: it shows in /v1/system-check and in that completion's error.
  progress.step("starting the inference engine");
  await embeddedEngine()
    .probe()
    .catch((error: Error) => console.warn(`anneal: warning: the inference engine did not start: ${error.message}`));
  // Training runs here too (on worker threads); ANNEAL_TRAINING_CONCURRENCY=0 leaves it to workers.
  const runner = env.ANNEAL_TRAINING_CONCURRENCY > 0 ? new TrainingRunner(runnerSettingsFromEnv("embedded")) : null;
  if (runner) progress.step("starting the training runner");
  await runner?.start();
  // RL runs (the server's own rollout → job loop) are driven where jobs train.
  const rlRuns = runner ? new RlRunDriver(runDriverSettings(runner.settings)) : null;
  rlRuns?.start();
  progress.step("listening");

  let stopping = false;
  const hurry = new AbortController();
  const stop = async (signal: string) => {
    if (stopping) {
      // A second Ctrl-C: no more waiting for requests in flight; the rest of the shutdown still runs.
      if (!hurry.signal.aborted) console.log(`anneal: ${signal} again: cutting the requests in flight`);
      hurry.abort();
      return;
    }
    stopping = true;
    const inFlight = server.inFlight;
    console.log(`anneal: ${signal}: shutting down${inFlight ? `; finishing ${inFlight} request${inFlight === 1 ? "" : "s"} in flight (up to ${env.ANNEAL_SHUTDOWN_DRAIN_MS / 1000} s)` : ""}`);
    const cut = await server.close(env.ANNEAL_SHUTDOWN_DRAIN_MS, hurry.signal);
    if (cut) console.log(`anneal: cut ${cut} request${cut === 1 ? "" : "s"} still in flight`);
    await rlRuns?.stop(); // before the engine goes: a run in progress goes back to the queue at its iteration
    await embeddedEngine().dispose(); // generations in progress end; their calls are recorded
    await runner?.stop(); // a job in progress goes back to the queue
    await flushCalls(); // recorded calls still in the write-behind buffer
    await closeDatabase(); // PGlite must be closed to be durable
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
  // Printed once the handlers are in: whoever waits for this line may signal at once.
  console.log(describeStartup({ env, database: db.kind === "pglite" ? `embedded PGlite in ${dataDir(env)}/db` : "PostgreSQL (DATABASE_URL)", report }));
}

main().catch(async (error) => {
  console.error(`anneal: ${(error as Error).message}`);
  await closeDatabase().catch(() => undefined);
  process.exit(1);
});
