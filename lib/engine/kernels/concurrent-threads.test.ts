// With ANNEAL_TRAINING_CONCURRENCY > 1 several training threads share one process and so one copy
// of the native addon. Two real training threads (the runner's entry, native kernels) train two
// different SFT jobs at the same time: each must compute bitwise what it computes alone — every
// step's loss and gradient norm, the checkpoint, and the optimizer state (AdamW's moments are
// running averages of the gradients, so they differ if any gradient element does).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrainingTask } from "@/lib/training/jobs/train/training-task";
import type { ThreadMessage } from "@/lib/training/jobs/train/thread-messages";
import { writeTinyModel, type TinyModelFiles } from "../test-support/tiny-model";
import { nativeRequired } from "./testing";

const TRAIN_THREAD = new URL("../../training/jobs/train/train-thread.mjs", import.meta.url);

interface JobResult {
  steps: Record<string, number>[];
  checkpoint: string;
  optimizer: string;
}

/** When a job's first and last gradient steps were reported (performance.now()). */
interface StepWindow {
  from: number;
  to: number;
}

const sha256 = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** Runs one task on the thread: what it reported, hashes of what it wrote, and when it stepped. */
function train(thread: Worker, task: TrainingTask): Promise<{ result: JobResult; window: StepWindow }> {
  return new Promise((resolve, reject) => {
    const steps: Record<string, number>[] = [];
    const window = { from: Infinity, to: -Infinity };
    const onMessage = (message: ThreadMessage) => {
      if (message.type === "step") {
        steps.push(message.metrics);
        window.from = Math.min(window.from, performance.now());
        window.to = performance.now();
      }
      if (message.type === "error") reject(new Error(`${path.basename(task.outputGguf)}: ${message.message}`));
      if (message.type !== "done") return;
      thread.off("message", onMessage).off("error", reject);
      resolve({ result: { steps, checkpoint: sha256(task.outputGguf), optimizer: sha256(task.outputOptimizer) }, window });
    };
    thread.on("message", onMessage).once("error", reject);
    thread.postMessage(task);
  });
}

// Two jobs with different data and sequence lengths, so a buffer one thread wrote is wrong for the other.
const echo = (n: number) => ({ messages: [{ role: "user", content: `Echo ${n}` }, { role: "assistant", content: `[${n}]` }] });
const story = (n: number) => ({
  messages: [
    { role: "user", content: `Tell me about the number ${n} and the numbers after it, slowly.` },
    { role: "assistant", content: Array.from({ length: 12 }, (_, i) => `${n + i} comes after ${n + i - 1}.`).join(" ") },
  ],
});

describe.skipIf(!nativeRequired)("native kernels in concurrent training threads", () => {
  let tiny: TinyModelFiles;
  let threads: Worker[];
  beforeAll(() => {
    tiny = writeTinyModel(5);
    // The thread picks its kernels itself; "native" makes it fail instead of falling back to TypeScript.
    threads = [0, 1].map(() => new Worker(TRAIN_THREAD, { env: { ...process.env, ANNEAL_KERNELS: "native" } }));
  });
  afterAll(async () => {
    await Promise.all(threads.map((t) => t.terminate()));
    tiny.remove();
  });

  // `run` names only the output files: the checkpoint's metadata holds the model name.
  const task = (job: string, run: string, data: unknown[]): TrainingTask => ({
    kind: "sft",
    data,
    config: { batch_size: 4, learning_rate: 1e-3 },
    defaults: { defaultRlLearningRate: 1e-4, defaultSftLearningRate: 1e-4 },
    rlRowsPerStep: 128,
    startGguf: tiny.model,
    startOptimizer: null,
    outputGguf: path.join(tiny.dir, `${job}-${run}.gguf`),
    outputOptimizer: path.join(tiny.dir, `${job}-${run}.optimizer`),
    modelName: job,
    step: 1,
  });
  const jobs = {
    // Long enough that both jobs' steps overlap even when one spends longer before its first step
    // (SFT's guard rails sample replies first; ~0.3 s apart here, more on a loaded machine).
    echo: (run: string) => task("echo", run, Array.from({ length: 480 }, (_, i) => echo(i * 7))),
    story: (run: string) => task("story", run, Array.from({ length: 96 }, (_, i) => story(i * 3))),
  };

  it("compute bitwise what each computes alone", async () => {
    const [a, b] = threads;
    const alone = { echo: (await train(a, jobs.echo("alone"))).result, story: (await train(b, jobs.story("alone"))).result };
    const [echo, story] = await Promise.all([train(a, jobs.echo("together")), train(b, jobs.story("together"))]);
    // Otherwise the test proves nothing: the two jobs' steps really ran at the same time.
    expect(echo.window.from < story.window.to && story.window.from < echo.window.to).toBe(true);
    expect(alone.echo.steps).not.toEqual(alone.story.steps);
    expect(echo.result).toEqual(alone.echo);
    expect(story.result).toEqual(alone.story);
  });
});
