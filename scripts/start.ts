// npm start: build if needed, open the database, migrate, initialise, and serve the API and the
// console from this one process (it owns the embedded database).
import http from "node:http";
import path from "node:path";
import next from "next";
import { bootstrapInstance } from "@/lib/auth/bootstrap";
import { dataDir, getEnv } from "@/lib/config/env";
import { ensureDataDirs } from "@/lib/config/paths";
import { closeDatabase, getDatabase } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { buildApp, buildIsCurrent } from "./lib/build";
import { describeStartup } from "./lib/startup-banner";

const root = path.resolve(import.meta.dirname, "..");
process.chdir(root);
process.env.NEXT_TELEMETRY_DISABLED = "1";

async function main() {
  const env = getEnv();
  ensureDataDirs();
  const db = getDatabase(); // first, so a second instance is refused before a long build
  if (!buildIsCurrent(root)) buildApp(root);

  const applied = await migrate(db.sql);
  if (applied.length) console.log(`anneal: applied migrations: ${applied.join(", ")}`);
  const report = await bootstrapInstance(env);

  const app = next({ dev: false, dir: root, hostname: env.HOST, port: env.PORT });
  const handler = app.getRequestHandler();
  await app.prepare();
  const server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(env.PORT, env.HOST, resolve);
  });
  console.log(describeStartup({ env, database: db.kind === "pglite" ? `embedded PGlite in ${dataDir(env)}/db` : "PostgreSQL (DATABASE_URL)", report }));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`anneal: ${signal}: shutting down`);
    server.close();
    server.closeAllConnections();
    await app.close().catch(() => undefined);
    await closeDatabase(); // PGlite must be closed to be durable
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch(async (error) => {
  console.error(`anneal: ${(error as Error).message}`);
  await closeDatabase().catch(() => undefined);
  process.exit(1);
});
