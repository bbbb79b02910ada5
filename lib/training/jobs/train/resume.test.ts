import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readLlamaGguf } from "@/lib/engine/gguf/llama-gguf";
import { LlamaModel } from "@/lib/engine/model/llama-model";
import { Prng } from "@/lib/engine/prng";
import { writeTinyModel } from "@/lib/engine/test-support/tiny-model";
import { sampleChoices } from "@/lib/training/test-support/sample-choices";
import type { GradientStepMetrics } from "@/lib/training/gradient-step";
import { runTraining } from "./run-training";
import type { TextTrainingTask } from "./training-task";
import type { SavedState } from "./state-saver";

// A job whose attempt dies after its last save and is resumed from that state ends with the same
// weights, optimizer state and metrics as the job run uninterrupted: bit for bit (the engine's
// kernels are deterministic on one machine, and a state holds the exact float32 values).

const files = writeTinyModel(7);
afterAll(() => files.remove());

class AttemptDied extends Error {}

interface Run {
  started: { numSequences: number; fromStep: number };
  steps: GradientStepMetrics[];
  saved: SavedState[];
  metrics?: Record<string, number>;
}

function run(name: string, job: Pick<TextTrainingTask, "kind" | "data" | "config">, o: { attempt: number; resume?: string; dieAfter?: number }): Run {
  const dir = path.join(files.dir, name);
  fs.mkdirSync(dir);
  const result: Run = { started: { numSequences: -1, fromStep: -1 }, steps: [], saved: [] };
  try {
    result.metrics = runTraining(
      {
        ...job,
        defaults: { defaultRlLearningRate: 1e-3, defaultSftLearningRate: 1e-3 },
        startGguf: files.model,
        startOptimizer: null,
        outputGguf: path.join(dir, "out.gguf"),
        outputOptimizer: path.join(dir, "out.optim"),
        modelName: "m",
        step: 1,
        save: { dir: path.join(dir, "state"), attempt: o.attempt, everySteps: 2, everyMs: 0 },
        resume: o.resume,
        // Small steps, so that the RL job (64 trajectories) has several to die between.
        rlRowsPerStep: 16,
      },
      {
        started: (numSequences, fromStep) => (result.started = { numSequences, fromStep }),
        gradientStep: (metrics) => {
          result.steps.push(metrics);
          if (metrics.step === o.dieAfter) throw new AttemptDied();
        },
        saved: (state) => result.saved.push(state),
      },
    );
  } catch (error) {
    if (!(error instanceof AttemptDied)) throw error;
  }
  return result;
}

function expectSameOutput(a: string, b: string) {
  const [x, y] = [readLlamaGguf(path.join(files.dir, a, "out.gguf")), readLlamaGguf(path.join(files.dir, b, "out.gguf"))];
  for (const name of Object.keys(x.weights)) expect(Buffer.from(y.weights[name].buffer).equals(Buffer.from(x.weights[name].buffer)), name).toBe(true);
  expect(fs.readFileSync(path.join(files.dir, b, "out.optim")).equals(fs.readFileSync(path.join(files.dir, a, "out.optim")))).toBe(true);
}

/** Runs the job whole, then as an attempt that dies after step `dieAfter` and a retry resuming from
 *  the attempt's last save; checks they agree. */
function checkResume(kind: string, job: Pick<TextTrainingTask, "kind" | "data" | "config">, dieAfter: number) {
  const whole = run(`${kind}-whole`, job, { attempt: 1 });
  const first = run(`${kind}-first`, job, { attempt: 1, dieAfter });
  const last = first.saved.at(-1)!;
  expect(whole.started.numSequences).toBeGreaterThan(dieAfter);
  expect(last.step).toBe(dieAfter - (dieAfter % 2)); // every 2 steps
  expect(fs.existsSync(last.file)).toBe(true);
  const retry = run(`${kind}-retry`, job, { attempt: 2, resume: last.file });

  expect(retry.started).toEqual({ numSequences: whole.started.numSequences, fromStep: last.step });
  // Steps numbered on from the save; the redone steps compute the numbers the dead attempt reported.
  expect(retry.steps.map((s) => s.step)).toEqual(whole.steps.slice(last.step).map((s) => s.step));
  expect(retry.steps).toEqual(whole.steps.slice(last.step));
  expect(first.steps).toEqual(whole.steps.slice(0, dieAfter));
  expect(retry.metrics).toEqual(whole.metrics);
  expectSameOutput(`${kind}-whole`, `${kind}-retry`);
  // No save after the job's last step: the checkpoint follows it.
  expect(whole.saved.map((s) => s.step)).toEqual(whole.steps.map((s) => s.step).filter((s) => s % 2 === 0 && s < whole.started.numSequences));
}

describe("resuming a job from its saved state", () => {
  it("SFT: continues the step numbering and ends with the uninterrupted run's weights, bit for bit", () => {
    const data = Array.from({ length: 14 }, (_, i) => ({ messages: [{ role: "user", content: `say ${i}` }, { role: "assistant", content: `ok ${i * 7}` }] }));
    // A per-batch learning-rate schedule: a resumed step must use its own batch's rate.
    const learningRate = Array.from({ length: 7 }, (_, k) => 1e-3 * (1 + k));
    checkResume("sft", { kind: "sft", data, config: { batch_size: 2, learning_rate: learningRate } }, 5);
  });

  it("SFT with early stopping: a retry keeps the best epoch's weights and stops where the uninterrupted run stops", () => {
    const data = Array.from({ length: 20 }, (_, i) => ({ messages: [{ role: "user", content: `say ${i}` }, { role: "assistant", content: `ok ${i * 7}` }] }));
    // A rate far too high for the tiny model: validation loss is worse after epoch 2 than after 1.
    const job = { kind: "sft" as const, data, config: { batch_size: 4, epochs: 6, validation_fraction: 0.2, early_stopping_patience: 1, learning_rate: 6e-2 } };
    const whole = run("sft-stop-probe", job, { attempt: 1 });
    const epochEnds = whole.steps.filter((s) => s.epoch !== undefined).map((s) => [s.epoch, s["val/loss"]]);
    expect(whole.metrics, JSON.stringify(epochEnds)).toMatchObject({ "val/best_epoch": 1, "train/epochs": 2 });
    // 4 steps an epoch, a save every 2. Dying at step 7 resumes from step 6: epoch 1's weights are
    // the state's kept weights, not its current ones.
    checkResume("sft-stop", job, 7);
    // The state saved with the stopping step (8): a retry from it takes no step and ends the same.
    const atStop = whole.saved.at(-1)!;
    expect(atStop.step).toBe(8);
    const retry = run("sft-stop-end", job, { attempt: 2, resume: atStop.file });
    expect(retry.started).toEqual({ numSequences: whole.started.numSequences, fromStep: 8 });
    expect(retry.steps).toEqual([]);
    expect(retry.metrics).toEqual(whole.metrics);
    expectSameOutput("sft-stop-probe", "sft-stop-end");
  });

  it("RL with precalculate_logprobs: π_old comes from the job's start weights, as uninterrupted", () => {
    const model = new LlamaModel(files.config, { weights: files.weights });
    const rng = new Prng(3);
    const prompt = [{ role: "user" as const, content: "Count" }];
    const groups = Array.from({ length: 8 }, (_, g) => ({
      trajectories: sampleChoices(model, files.tokenizer, prompt, 8, { maxTokens: 4, temperature: 1, rng })
        .map((choice, t) => ({ messages_and_choices: [...prompt, choice], reward: (g + t) % 3 })),
    }));
    const data = JSON.parse(JSON.stringify(groups)) as unknown[];
    checkResume("rl", { kind: "rl", data, config: { precalculate_logprobs: true, learning_rate: 1e-3 } }, 3);
  });

  it("starts over from step 0 when the saved state belongs to other weights or another job", () => {
    const data = Array.from({ length: 6 }, (_, i) => ({ messages: [{ role: "user", content: `hi ${i}` }, { role: "assistant", content: `yo ${i}` }] }));
    const first = run("misfit-first", { kind: "sft", data, config: { batch_size: 2 } }, { attempt: 1, dieAfter: 3 });
    const other = run("misfit-other", { kind: "sft", data: data.slice(0, 4), config: { batch_size: 1 } }, { attempt: 2, resume: first.saved[0].file });
    expect(other.started).toEqual({ numSequences: 4, fromStep: 0 });
    expect(other.steps.map((s) => s.step)).toEqual([1, 2, 3, 4]);
  });
});
