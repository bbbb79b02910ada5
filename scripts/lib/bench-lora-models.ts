// The GGUF files bench:lora trains and serves: random weights in the exact shapes of SmolLM2-135M and
// Qwen2.5-0.5B, in the layout llama.cpp's converter writes (lib/engine/test-support/real-layout-*),
// as F16 and Q8_0 made by libllama's own llama_model_quantize from an F32 file. Cached under
// data/bench/lora/ (git-ignored): a file is made again only when the code that writes it changes.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LLAMA_FTYPE, quantizeGgufWithLlama } from "../../lib/engine/test-support/ggml-reference";
import { writeRealLayoutModel } from "../../lib/engine/test-support/real-layout-models";
import { QWEN25_05B, SMOLLM2_135M, type RealLayoutShape } from "../../lib/engine/test-support/real-layout-shapes";

export const BENCH_SHAPES = { "smollm2-135m": SMOLLM2_135M, "qwen2.5-0.5b": QWEN25_05B } satisfies Record<string, RealLayoutShape>;
export type BenchShape = keyof typeof BENCH_SHAPES;
export const WEIGHT_TYPES = { f16: LLAMA_FTYPE.MOSTLY_F16, q8_0: LLAMA_FTYPE.MOSTLY_Q8_0 } as const;
export type WeightType = keyof typeof WEIGHT_TYPES;

/** The sources whose output the files are: a change to any of them makes the files again. */
const WRITERS = ["real-layout-models.ts", "real-layout-shapes.ts", "real-tokenizers.ts", "qwen25-chat-template.ts"]
  .map((f) => path.join(import.meta.dirname, "../../lib/engine/test-support", f));

export interface BenchLoraModel {
  shape: BenchShape;
  type: WeightType;
  path: string;
  /** Seconds spent making it in this run (0: it was cached). */
  madeSeconds: number;
}

/** The shape's files in these weight types, made (from one F32 file) where not cached. */
export function benchLoraModels(dir: string, shape: BenchShape, types: readonly WeightType[]): BenchLoraModel[] {
  const hash = createHash("sha256");
  for (const file of WRITERS) hash.update(fs.readFileSync(file));
  const key = hash.digest("hex").slice(0, 12);
  const models = types.map((type) => ({ shape, type, path: path.join(dir, `${shape}-${type}-${key}.gguf`), madeSeconds: 0 }));
  const missing = models.filter((m) => !fs.existsSync(m.path));
  if (!missing.length) return models;
  const t0 = performance.now();
  fs.mkdirSync(dir, { recursive: true });
  // The F32 source (2 GB for 0.5B) lives only while it is quantized; each result is renamed into
  // place whole, so an interrupted run leaves no half-written file to be taken for a cached one.
  const f32 = path.join(dir, `${shape}-f32.${process.pid}.tmp`);
  try {
    writeRealLayoutModel(f32, BENCH_SHAPES[shape], { name: `random ${shape}` });
    for (const m of missing) {
      const tmp = `${m.path}.${process.pid}.tmp`;
      try {
        quantizeGgufWithLlama(f32, tmp, WEIGHT_TYPES[m.type], os.availableParallelism());
        fs.renameSync(tmp, m.path);
      } finally {
        fs.rmSync(tmp, { force: true });
      }
    }
  } finally {
    fs.rmSync(f32, { force: true });
  }
  const seconds = (performance.now() - t0) / 1000;
  return models.map((m) => (missing.includes(m) ? { ...m, madeSeconds: seconds } : m));
}
