import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AdamW } from "../model/adamw";
import { LlamaModel } from "../model/llama-model";
import { TINY_CONFIG } from "../test-support/tiny-model";
import { trainStep } from "../train/train-step";
import { loadCheckpoint, saveCheckpoint } from "./checkpoint";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-checkpoint-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const config = { ...TINY_CONFIG, vocabSize: 32, contextLength: 16 };
const T = 8;
const batch = {
  tokens: Int32Array.from({ length: T }, (_, i) => (i * 5) % 32),
  targets: Int32Array.from({ length: T }, (_, i) => ((i + 1) * 5) % 32),
  weights: new Float32Array(T).fill(1),
  batchSize: 1,
  seqLen: T,
};

describe("training checkpoint", () => {
  it("resumes to exactly the weights an uninterrupted run reaches", () => {
    const straight = new LlamaModel(config, { seed: 4 });
    const straightOpt = new AdamW(straight.params);
    for (let s = 0; s < 4; s++) trainStep(straight, straightOpt, batch, 1e-2);

    const first = new LlamaModel(config, { seed: 4 });
    const firstOpt = new AdamW(first.params);
    for (let s = 0; s < 2; s++) trainStep(first, firstOpt, batch, 1e-2);
    const file = path.join(dir, "state.bin");
    saveCheckpoint(file, { step: 2, note: "ü" }, first.params, firstOpt);

    const resumed = new LlamaModel(config, { seed: 99 });
    const resumedOpt = new AdamW(resumed.params);
    expect(loadCheckpoint<{ step: number; note: string }>(file, resumed.params, resumedOpt)).toMatchObject({ step: 2, note: "ü" });
    expect(resumedOpt.step).toBe(2);
    for (let s = 0; s < 2; s++) trainStep(resumed, resumedOpt, batch, 1e-2);
    expect(resumed.params.values).toEqual(straight.params.values);
    expect(fs.existsSync(`${file}.tmp`)).toBe(false);
  });

  it("refuses a checkpoint of another model size", () => {
    const model = new LlamaModel(config, { seed: 1 });
    const file = path.join(dir, "small.bin");
    saveCheckpoint(file, {}, model.params, new AdamW(model.params));
    const bigger = new LlamaModel({ ...config, dim: 128 }, { seed: 1 });
    expect(() => loadCheckpoint(file, bigger.params, new AdamW(bigger.params))).toThrow(/parameters/);
  });
});
