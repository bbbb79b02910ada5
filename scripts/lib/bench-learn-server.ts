// bench:learn's server: `npm start`'s own entry (scripts/start.ts) in a child process, on a fresh
// temporary data directory and a free port, with a known API key: the real HTTP stack and the
// real training runner, reached over HTTP only. Its output goes to a log file, shown if it fails.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "./anneal-processes";

export interface BenchServer {
  url: string;
  apiKey: string;
  dataDir: string;
  /** Seconds from spawn to a healthy server (includes a build when `.next` is stale). */
  startSeconds: number;
  stop(): Promise<void>;
}

export async function startBenchServer(root: string, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-bench-learn-"));
  const port = await freePort();
  const apiKey = `bench-learn-${randomBytes(16).toString("hex")}`;
  const logFile = path.join(dataDir, "server.log");
  const log = fs.openSync(logFile, "a");
  const started = performance.now();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, ANNEAL_DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", ANNEAL_INIT_API_KEY: apiKey, ANNEAL_LOG_LEVEL: "warn" };
  // The embedded database (unless the caller names one) and the shipped model only: nothing from the caller's instance.
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  delete childEnv.ANNEAL_MODELS_FILE;
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts/start.ts")], { cwd: root, stdio: ["ignore", log, log], env: childEnv });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let running = true;
  void exited.then(() => (running = false));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (running) child.kill("SIGTERM");
    await exited;
    fs.closeSync(log);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  // A build (when sources changed since the last one) takes a few minutes on two cores.
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    if (!running) {
      const output = fs.readFileSync(logFile, "utf8");
      await stop();
      throw new Error(`the server exited during startup:\n${output}`);
    }
    const healthy = await fetch(`${url}/v1/health`).then((r) => r.ok, () => false);
    if (healthy) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server was not healthy within 15 minutes (log: ${logFile})`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { url, apiKey, dataDir, startSeconds: (performance.now() - started) / 1000, stop };
}
