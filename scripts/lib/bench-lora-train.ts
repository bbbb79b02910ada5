// One bench:lora training case, run in a process of its own (forked by scripts/bench-lora.ts) so that
// its peak RSS is the job's alone: a base GGUF loaded and given a fresh LoRA adapter (the API's
// default) by the training job's own openTrainingModel (the base packed, AdamW without decay), then
// SFT steps through the job's own step (sftStep: forward, cross-entropy, backward, clipping, AdamW)
// on rows of random tokens with the loss on every token, and optionally an RL step (rlStep on a
// micro-batch built as a job builds it) and the adapter written as a checkpoint is.
import { writeLoraGguf } from "@/lib/engine/gguf/lora-gguf";
import { openTrainingModel } from "@/lib/training/jobs/train/open-training-model";
import { loraSettingsSchema } from "@/lib/engine/model/lora-settings";
import { resolveRlConfig } from "@/lib/training/rl/experimental-config";
import { rlStep } from "@/lib/training/rl/rl-step";
import { sftStep } from "@/lib/training/sft/sft-step";
import { buildMicroBatches, type RlTrajectory } from "@/lib/training/trajectories/micro-batches";
import { randomTokens } from "./bench-tokens";
import { procMemory } from "./proc-memory";

export interface RowsShape {
  rows: number;
  /** Tokens per row (every one of them real: no padding). */
  seqLen: number;
}

export interface TrainCase {
  model: string;
  sft: RowsShape & {
    /** Untimed steps first (allocation, JIT). */
    warmUp: number;
    steps: number;
  };
  /** One RL step after the SFT steps: `rows` completions of one prompt, the second half of each row sampled. */
  rl?: RowsShape;
  /** Where to write the adapter after the steps, as a job writes its checkpoint. */
  adapterOut?: string;
}

export interface TrainResult {
  /** Reading the base and making the model. */
  loadSeconds: number;
  /** Each timed SFT step. */
  stepSeconds: number[];
  /** Tokens of the timed steps over their time. */
  tokensPerSecond: number;
  rlStepSeconds?: number;
  /** The process's peak resident set (VmHWM; getrusage's maxrss where there is no /proc), bytes. */
  peakRssBytes: number;
  /** Stopped by the bench when its resident set passed the cap (peakRssBytes is then the reading that did). */
  stopped?: boolean;
}

const LEARNING_RATE = 1e-4;
const PAD = 0;

export function runTrainCase(c: TrainCase): TrainResult {
  const t0 = performance.now();
  const settings = loraSettingsSchema.parse({});
  const { start, model, optimizer } = openTrainingModel({ startGguf: c.model, lora: { settings, startAdapter: null, seed: 1 } });
  const loadSeconds = (performance.now() - t0) / 1000;

  const { vocabSize } = start.config;
  const { rows, seqLen } = c.sft;
  const stepSeconds: number[] = [];
  for (let step = 1; step <= c.sft.warmUp + c.sft.steps; step++) {
    const conversations = Array.from({ length: rows }, (_, r) => ({ ids: randomTokens(seqLen, vocabSize, step * 1000 + r), assistantMask: new Uint8Array(seqLen).fill(1) }));
    const s0 = performance.now();
    sftStep({ model, optimizer, padId: PAD, conversations, numExamples: rows, learningRate: LEARNING_RATE, step, seed: 1 });
    if (step > c.sft.warmUp) stepSeconds.push((performance.now() - s0) / 1000);
  }
  const tokensPerSecond = (rows * seqLen * stepSeconds.length) / stepSeconds.reduce((a, b) => a + b, 0);

  let rlStepSeconds: number | undefined;
  if (c.rl) {
    const half = Math.floor(c.rl.seqLen / 2);
    const prompt = randomTokens(half, vocabSize, 7);
    const trajectories: RlTrajectory[] = Array.from({ length: c.rl.rows }, (_, r) => {
      const ids = [...prompt, ...randomTokens(c.rl!.seqLen - half, vocabSize, 100 + r)];
      const sampled = (i: number) => i >= half;
      return {
        rows: [{ ids, trainable: Uint8Array.from(ids, (_, i) => Number(sampled(i))), oldLogprobs: Float32Array.from(ids, (_, i) => (sampled(i) ? -1 - (i % 5) / 5 : NaN)) }],
        advantage: r % 2 ? 1 : -1,
        weight: 1 / (c.rl!.seqLen - half),
      };
    });
    const [batch] = buildMicroBatches(trajectories, { rows: c.rl.rows, tokens: c.rl.rows * c.rl.seqLen }, PAD);
    const config = resolveRlConfig({}, { defaultRlLearningRate: LEARNING_RATE, defaultSftLearningRate: LEARNING_RATE });
    const stats = { reward: 0.5, rewardStdDev: 0.5, numGroupsSubmitted: 1, numGroupsTrainable: 1, numTrajectories: c.rl.rows };
    const s0 = performance.now();
    rlStep({ model, optimizer, batch, config, step: c.sft.warmUp + c.sft.steps + 1, seed: 1, stats });
    rlStepSeconds = (performance.now() - s0) / 1000;
  }

  if (c.adapterOut) writeLoraGguf(c.adapterOut, { config: start.config, adapters: model.adapters(), alpha: settings.alpha });
  return { loadSeconds, stepSeconds, tokensPerSecond, rlStepSeconds, peakRssBytes: procMemory("self", "VmHWM") ?? process.resourceUsage().maxRSS * 1024 };
}

// Forked: the case comes as a message, the result goes back as one.
if (process.send) {
  process.once("message", (c: TrainCase) => {
    try {
      process.send!({ result: runTrainCase(c) }, () => process.exit(0));
    } catch (error) {
      process.send!({ error: (error as Error).stack ?? String(error) }, () => process.exit(1));
    }
  });
}
