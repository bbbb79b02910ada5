import fs from "node:fs";
import path from "node:path";
import { writeRealLayoutModel } from "../lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES } from "../lib/engine/test-support/real-layout-shapes";
import { E2E_DATA_DIR } from "../playwright.config";

// Runs once the servers are up (Playwright starts webServer before globalSetup): puts a small
// random-weight GGUF in Qwen2.5's layout, with its real tokenizer, into the instance's models
// directory (ANNEAL_MODELS_DIR's default, <data dir>/models), where an admin adds it as a base
// (e2e/real-models.spec.ts). 64 wide, 2 layers: ~39 MB, written in about a second.

export const E2E_REAL_MODEL_FILE = "qwen2-small.gguf";

export default function globalSetup() {
  const dir = path.join(E2E_DATA_DIR, "models");
  fs.mkdirSync(dir, { recursive: true });
  writeRealLayoutModel(path.join(dir, E2E_REAL_MODEL_FILE), SMALL_SHAPES.qwen2, { name: "qwen2-small", seed: 4 });
}
