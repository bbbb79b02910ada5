import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LlamaModel } from "@/lib/engine/model/llama-model";
import { Prng } from "@/lib/engine/prng";
import { writeRealLayoutModel } from "@/lib/engine/test-support/real-layout-models";
import { SMALL_SHAPES } from "@/lib/engine/test-support/real-layout-shapes";
import { writeTinyModel } from "@/lib/engine/test-support/tiny-model";
import { loadTrainingVocabulary } from "@/lib/engine/serving/llama-cpp-vocabulary";
import type { TrainingVocabulary } from "@/lib/engine/tokenizer/training-vocabulary";
import type { GradientStepMetrics } from "@/lib/training/gradient-step";
import type { JobReport } from "@/lib/training/jobs/job-report";
import type { JobSourceTask } from "@/lib/training/jobs/load-job-task";
import { runTraining } from "@/lib/training/jobs/train/run-training";
import { tokenTrainingTask, type TrainingTask } from "@/lib/training/jobs/train/training-task";
import { loraSettingsSchema } from "@/lib/engine/model/lora-settings";
import { shuffledIndices } from "@/lib/training/sft/validation-split";
import { sampleChoices } from "@/lib/training/test-support/sample-choices";
import { checkTrainedWeights } from "./check-trained-weights";
import { inputsOnThread } from "./job-inputs";
import { taskInputs } from "./task-inputs";
import { jobInputsSchema, type JobInputs } from "@/lib/training/jobs/job-inputs-schema";

// A job sent to a remote worker as token ids (taskInputs: what jobInputs answers once the job is
// loaded) and trained from them by Anneal's trainer takes the embedded path's gradient steps: the
// same losses and gradient norms bit for bit, and the same checkpoint (adapter or full GGUF) and
// optimizer bytes.

const tiny = writeTinyModel(11);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "anneal-job-inputs-"));
const qwen = path.join(dir, "qwen2.gguf");
beforeAll(() => writeRealLayoutModel(qwen, SMALL_SHAPES.qwen2, { seed: 5 }));
afterAll(() => {
  tiny.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

const defaults = { defaultRlLearningRate: 1e-3, defaultSftLearningRate: 1e-3 };
let rlJob: { source: JobSourceTask; inputs: JobInputs } | undefined;
const lora = loraSettingsSchema.parse({ rank: 8, alpha: 16, dropout: 0.1 });

interface Run {
  steps: GradientStepMetrics[];
  metrics: Record<string, number>;
  report: JobReport | null;
  checkpoint: Buffer;
  optimizer: Buffer;
}

function train(name: string, task: (out: { outputGguf: string; outputOptimizer: string }) => TrainingTask, vocabulary?: TrainingVocabulary): Run {
  const out = { outputGguf: path.join(dir, `${name}.gguf`), outputOptimizer: path.join(dir, `${name}.optimizer`) };
  const run: Omit<Run, "checkpoint" | "optimizer"> = { steps: [], metrics: {}, report: null };
  run.metrics = runTraining(task(out), { started: () => {}, gradientStep: (m) => run.steps.push(m), report: (r) => (run.report = r) }, vocabulary);
  return { ...run, checkpoint: fs.readFileSync(out.outputGguf), optimizer: fs.readFileSync(out.outputOptimizer) };
}

/** The job trained both ways; the inputs as a worker parses them off the wire. */
async function bothWays(name: string, source: JobSourceTask): Promise<{ local: Run; remote: Run; inputs: JobInputs }> {
  // The embedded path tokenizes with the start file's vocabulary, as the training thread does.
  const loaded = await loadTrainingVocabulary(source.startGguf);
  let local: Run;
  try {
    local = train(`${name}-local`, (out) => ({ ...source, ...out }), loaded.vocabulary);
  } finally {
    await loaded.close();
  }
  const inputs = jobInputsSchema.parse(JSON.parse(JSON.stringify(await taskInputs(source))));
  const remote = train(`${name}-remote`, (out) =>
    tokenTrainingTask(inputs, { ...out, startGguf: source.startGguf, startAdapter: null, startOptimizer: null, modelName: source.modelName }));
  return { local, remote, inputs };
}

function expectSameTraining(local: Run, remote: Run) {
  expect(remote.steps.length).toBeGreaterThan(1);
  expect(remote.steps).toEqual(local.steps);
  expect(remote.checkpoint.equals(local.checkpoint)).toBe(true);
  expect(remote.optimizer.equals(local.optimizer)).toBe(true);
  for (const [key, value] of Object.entries(remote.metrics)) expect([key, local.metrics[key]]).toEqual([key, value]);
}

/** Per-token arrays as long as their row, entry 0 never trained. */
function expectAligned(rows: readonly { ids: number[] }[], perToken: readonly string[]) {
  for (const row of rows) {
    for (const key of perToken) expect((row as unknown as Record<string, unknown[]>)[key]).toHaveLength(row.ids.length);
  }
}

describe("a job as token ids (jobInputs)", () => {
  it("SFT on a Qwen-layout base with llama.cpp's vocabulary: the remote plan trains as the embedded job, bit for bit", async () => {
    const data = Array.from({ length: 8 }, (_, i) => ({
      messages: [{ role: "user", content: `Spell ${i * 37}` }, { role: "assistant", content: `It is ${i * 37}, or ${String(i * 37).split("").join(" ")}.` }],
    }));
    const source: JobSourceTask = {
      kind: "sft", data, validationData: null, defaults, probe: null, startGguf: qwen, lora: { settings: lora, startAdapter: null },
      startOptimizer: null, modelName: "team/project/sft", step: 3, rlRowsPerStep: 16,
      config: { batch_size: 4, epochs: 3, validation_fraction: 0.25, early_stopping_patience: 3, learning_rate: 5e-3 },
    };
    const { local, remote, inputs } = await bothWays("sft", source);
    expectSameTraining(local, remote);
    expect(remote.metrics).toMatchObject({ "train/num_examples": 6, "train/epochs": 3, "val/best_epoch": expect.any(Number) });
    expect(remote.report).toEqual({ warnings: [{ code: "guard_rails_not_run", message: expect.stringContaining("token ids") }], samples: [] });
    // The server's guard rails on the worker's checkpoint: the local job's report and probe metrics, exactly.
    const checkpoint = path.join(dir, "sft-remote.gguf");
    const checked = await checkTrainedWeights({ task: source, checkpoint, trainLosses: remote.steps.map((s) => s.loss), deadline: Date.now() + 600_000 });
    expect(checked).toEqual({ measured: { metrics: { "probe/correct": local.metrics["probe/correct"], "probe/base_correct": local.metrics["probe/base_correct"] }, report: local.report } });
    expect(local.report!.samples).toHaveLength(2);
    expect(await checkTrainedWeights({ task: source, checkpoint, trainLosses: [], deadline: Date.now() - 1 })).toEqual({ cutShort: { during: "the starting weights" } });

    const sft = inputs.sft!;
    expect(inputs).toMatchObject({ kind: "sft", mode: "lora", step: 3, seed: 3, lora, rl: null, max_grad_norm: 1 });
    expect([sft.examples.length, sft.validation.length, sft.steps_per_epoch]).toEqual([6, 2, 2]);
    expectAligned(sft.rows, ["weights"]);
    expect(sft.rows.every((r) => r.weights[0] === 0 && r.weights.some((w) => w === 1))).toBe(true);
    // The plan: the first epoch in the data's order, later ones shuffled by their epoch, batches of 4 (the last of 2).
    const expected = [0, 1, 2].flatMap((epoch) => {
      const order = epoch === 0 ? [...Array(6).keys()] : shuffledIndices(6, epoch);
      return [order.slice(0, 4), order.slice(4)];
    });
    expect(sft.steps.map((s) => s.examples)).toEqual(expected);
    expect(local.steps.map((s) => s.num_trajectories)).toEqual(expected.map((b) => b.length));
  });

  it("RL (PPO, sequence-level ratios, several trajectories a step): the remote micro-batches train as the embedded job, bit for bit", async () => {
    const model = new LlamaModel(tiny.config, { weights: tiny.weights });
    const rng = new Prng(4);
    const prompt = [{ role: "user" as const, content: "Count" }];
    const groups = Array.from({ length: 4 }, (_, g) => ({
      trajectories: sampleChoices(model, tiny.tokenizer, prompt, 6, { maxTokens: 5, temperature: 1, rng })
        .map((choice, t) => ({ messages_and_choices: [...prompt, choice], reward: (g * t) % 4 })),
    }));
    const source: JobSourceTask = {
      kind: "rl", data: JSON.parse(JSON.stringify(groups)), validationData: null, defaults, probe: null, startGguf: tiny.model,
      lora: { settings: lora, startAdapter: null }, startOptimizer: null, modelName: "team/project/rl", step: 2, rlRowsPerStep: 5,
      config: { ppo: true, importance_sampling_level: "sequence", epsilon: 0.5, precalculate_logprobs: true, max_negative_advantage_importance_sampling_weight: 2 },
    };
    const { local, remote, inputs } = await bothWays("rl", source);
    rlJob = { source, inputs };
    expectSameTraining(local, remote);
    expect(remote.metrics).toEqual(local.metrics);

    const rl = inputs.rl!;
    expect(inputs).toMatchObject({ kind: "rl", mode: "lora", step: 2, seed: 2, sft: null });
    expect(rl.loss).toEqual({
      ppo: true, epsilon: 0.5, epsilon_high: 0.5, importance_sampling_level: "sequence",
      max_negative_advantage_importance_sampling_weight: 2, mask_prob_ratio: false, kimi_k2_tau: 0,
    });
    expect(rl).toMatchObject({ learning_rate: 1e-3, precalculate_logprobs: true, stats: { num_groups_submitted: 4 } });
    const rows = rl.steps.flatMap((s) => s.rows);
    expectAligned(rows, ["mask", "logprobs", "advantages", "weights", "segments"]);
    expect(rows.every((r) => r.mask[0] === 0 && r.logprobs[0] === null && r.segments[0] === -1)).toBe(true);
    // Every trainable token carries the sampler's logprob, its trajectory's number within the step.
    for (const step of rl.steps) {
      expect(step.rows.length).toBeLessThanOrEqual(5);
      const trainable = step.rows.flatMap((r) => r.mask.flatMap((m, i) => (m ? [[r.logprobs[i], r.segments[i]] as const] : [])));
      expect(trainable.some(([logprob]) => logprob !== null)).toBe(true);
      expect(new Set(trainable.map(([, segment]) => segment)).size).toBe(step.num_trajectories);
    }
  });

  it("full weights: the remote job writes the embedded job's GGUF, byte for byte", async () => {
    const { source } = rlJob!;
    const { local, remote, inputs } = await bothWays("rl-full", { ...source, lora: null });
    expect(inputs).toMatchObject({ mode: "full", lora: null });
    expectSameTraining(local, remote);
  });

  it("jobInputs tokenizes on a thread of its own: the same answer, and a failure as an error", async () => {
    const { source, inputs } = rlJob!;
    expect(await inputsOnThread(source)).toEqual(inputs);
    await expect(inputsOnThread({ ...source, startGguf: path.join(dir, "missing.gguf") })).rejects.toThrow(/missing\.gguf|ENOENT/);
  });
});
