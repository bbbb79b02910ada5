import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { resetEnvCache } from "@/lib/config/env";
import { ensureDataDirs } from "@/lib/config/paths";

/** A temporary ANNEAL_DATA_DIR (checkpoints, files) for the test file, removed afterwards. */
export function useTempDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `anneal-${prefix}-`));
  beforeAll(() => {
    process.env.ANNEAL_DATA_DIR = dir;
    resetEnvCache();
    ensureDataDirs();
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}
