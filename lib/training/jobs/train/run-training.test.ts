import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readLlamaGguf, writeLlamaGguf } from "@/lib/engine/gguf/llama-gguf";
import { writeTinyModel } from "@/lib/engine/test-support/tiny-model";
import { CHATML_TEMPLATE } from "@/lib/engine/tokenizer/chatml-template";
import { runTraining } from "./run-training";

// A checkpoint renders its prompts as the weights it was trained from did: it keeps their chat
// template (an older model's, or a base of another family's), not the template Anneal writes today.

const files = writeTinyModel(5);
afterAll(() => files.remove());

describe("runTraining", () => {
  it("writes the checkpoint with the start's chat template", () => {
    const template = `${CHATML_TEMPLATE}{# a model's own template #}`;
    const start = path.join(files.dir, "start.gguf");
    writeLlamaGguf(start, { config: files.config, weights: files.weights, tokenizer: files.tokenizer, name: "start", chatTemplate: template });
    const out = { outputGguf: path.join(files.dir, "step1.gguf"), outputOptimizer: path.join(files.dir, "step1.optimizer") };
    runTraining(
      {
        kind: "sft",
        data: [{ messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: "Hello" }] }],
        config: { batch_size: 1 },
        rlRowsPerStep: 128,
        defaults: { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 1e-4 },
        startGguf: start,
        startOptimizer: null,
        modelName: "m",
        step: 1,
        ...out,
      },
      { started: () => {}, gradientStep: () => {} },
    );
    expect(fs.existsSync(out.outputGguf)).toBe(true);
    expect(readLlamaGguf(out.outputGguf).metadata["tokenizer.chat_template"]?.value).toBe(template);
  });
});
