import fs from "node:fs";
import path from "node:path";
import { dataDir, getEnv, type Env } from "@/lib/config/env";

// The data directory's layout: db/ (embedded PGlite), anneal.lock, checkpoints/ (GGUF files),
// files/ (uploaded datasets), training-state/ (running jobs' saved states, for resuming), models/ (base-model
// GGUFs an admin registers; ANNEAL_MODELS_DIR puts them elsewhere). All but db/ live here with PostgreSQL too.

export interface DataPaths {
  root: string;
  db: string;
  checkpoints: string;
  files: string;
  trainingState: string;
  /** ANNEAL_MODELS_DIR: the only place base models registered through the API may come from. */
  models: string;
}

export function dataPaths(env: Env = getEnv()): DataPaths {
  const root = dataDir(env);
  // Resolved at run time; turbopackIgnore keeps the build from tracing the whole repository into it.
  const models = path.resolve(/* turbopackIgnore: true */ env.ANNEAL_MODELS_DIR ?? path.join(root, "models"));
  return { root, db: path.join(root, "db"), checkpoints: path.join(root, "checkpoints"), files: path.join(root, "files"), trainingState: path.join(root, "training-state"), models };
}

export function ensureDataDirs(paths: DataPaths = dataPaths()): DataPaths {
  for (const dir of [paths.root, paths.checkpoints, paths.files, paths.models]) fs.mkdirSync(dir, { recursive: true });
  return paths;
}
