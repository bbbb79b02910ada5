import fs from "node:fs";
import path from "node:path";
import { dataDir, getEnv, type Env } from "@/lib/config/env";

// The data directory's layout: db/ (embedded PGlite), anneal.lock, checkpoints/ (GGUF files),
// files/ (uploaded datasets), training-state/ (running jobs' saved states, for resuming). All but db/
// live here with PostgreSQL too.

export interface DataPaths {
  root: string;
  db: string;
  checkpoints: string;
  files: string;
  trainingState: string;
}

export function dataPaths(env: Env = getEnv()): DataPaths {
  const root = dataDir(env);
  return { root, db: path.join(root, "db"), checkpoints: path.join(root, "checkpoints"), files: path.join(root, "files"), trainingState: path.join(root, "training-state") };
}

export function ensureDataDirs(paths: DataPaths = dataPaths()): DataPaths {
  for (const dir of [paths.root, paths.checkpoints, paths.files]) fs.mkdirSync(dir, { recursive: true });
  return paths;
}
