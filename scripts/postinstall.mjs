// The project's own install step: Prisma's install scripts cannot download their engines offline,
// so generate the client here with a placeholder schema-engine path (generate never runs it), then
// build the engine's native kernels if the native build script exists.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, env, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(process.execPath, [path.join(root, "node_modules/prisma/build/index.js"), "generate"]);

const buildNative = path.join(root, "scripts/build-native.mjs");
if (existsSync(buildNative)) run(process.execPath, [buildNative]);
