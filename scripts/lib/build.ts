import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { StartupProgress } from "./startup-progress";

// `npm start` builds only when needed: no build yet, or a source file newer than the build.

const SOURCES = ["app", "components", "lib", "next.config.js", "postcss.config.mjs", "package.json", "instrumentation.ts", "middleware.ts", "proxy.ts"];
const IGNORED = new Set(["node_modules", "generated", "build", ".next"]);
/** Next prints nothing while it compiles (a minute or more): a line this often says it still works. */
const HEARTBEAT_MS = 10_000;

function newestMtime(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) {
    if (!IGNORED.has(entry)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

export function buildIsCurrent(root: string): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return false;
  const built = fs.statSync(buildId).mtimeMs;
  return SOURCES.every((source) => newestMtime(path.join(root, source)) <= built);
}

/**
 * Runs a command with its output passed through, calling `onQuiet(seconds since the start)` each
 * `heartbeatMs` in which it printed nothing. Resolves with its exit code.
 */
export function runWithHeartbeat(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; heartbeatMs: number; onQuiet: (seconds: number) => void },
): Promise<number> {
  const startedAt = performance.now();
  let printedSinceBeat = false;
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  const passThrough = (to: NodeJS.WriteStream) => (chunk: Buffer) => {
    printedSinceBeat = true;
    to.write(chunk);
  };
  child.stdout.on("data", passThrough(process.stdout));
  child.stderr.on("data", passThrough(process.stderr));
  const heartbeat = setInterval(() => {
    if (!printedSinceBeat) options.onQuiet(Math.round((performance.now() - startedAt) / 1000));
    printedSinceBeat = false;
  }, options.heartbeatMs);
  return new Promise<number>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  }).finally(() => clearInterval(heartbeat));
}

export async function buildApp(root: string, progress = new StartupProgress()): Promise<void> {
  progress.step("building the application (next build): the first start, or sources changed since the last build; a few minutes");
  const startedAt = performance.now();
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const code = await runWithHeartbeat(process.execPath, [nextBin, "build"], {
    cwd: root,
    // Piped, Next's output loses its colours unless told our terminal has them.
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...(process.stdout.isTTY ? { FORCE_COLOR: "1" } : {}) },
    heartbeatMs: HEARTBEAT_MS,
    onQuiet: (seconds) => progress.step(`building… ${seconds} s`),
  });
  if (code !== 0) throw new Error("next build failed (see the output above)");
  progress.step(`built in ${progress.elapsed(startedAt)} s`);
}
