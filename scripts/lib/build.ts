import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// `npm start` builds only when needed: no build yet, or a source file newer than the build.

const SOURCES = ["app", "components", "lib", "next.config.js", "postcss.config.mjs", "package.json", "instrumentation.ts", "middleware.ts", "proxy.ts"];
const IGNORED = new Set(["node_modules", "generated", "build", ".next"]);

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

export function buildApp(root: string): void {
  console.log("anneal: building the application (next build)…");
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error("next build failed (see the output above)");
}
