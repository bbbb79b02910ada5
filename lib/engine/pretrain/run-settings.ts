// Everything that determines a pretraining run, saved beside its checkpoints so --resume continues
// the same run, and how far the run has got (saved in the checkpoints themselves).
// `npx tsx scripts/pretrain.ts` reproduces tiny-chat-2; `--base tiny-chat` the first tiny-chat.

import type { CorpusVersion } from "../corpus/generate";
import type { LlamaConfig } from "../model/config";
import type { LossTokens } from "../train/packed-batch";
import type { LrSchedule } from "./lr-schedule";

export interface RunSettings {
  /** The base model it makes: models/<name>.gguf and its card models/<name>.md. */
  name: string;
  corpusVersion: CorpusVersion;
  /** The model shape (vocabSize is the tokenizer's target size). */
  model: LlamaConfig;
  /** Conversations the tokenizer is trained on, drawn from the corpus with tokenizerSeed. */
  tokenizerTexts: number;
  tokenizerSeed: number;
  corpusSeed: number;
  initSeed: number;
  batchSize: number;
  seqLen: number;
  lossTokens: LossTokens;
  schedule: LrSchedule;
  weightDecay: number;
  checkpointEvery: number;
}

/** A run's progress, saved in its checkpoints. */
export interface Trained {
  step: number;
  /** Non-padding tokens and conversations trained on so far. */
  tokens: number;
  conversations: number;
  trainingSeconds: number;
  lastLoss: number;
}

export const TINY_CHAT_SETTINGS: RunSettings = {
  name: "tiny-chat",
  corpusVersion: 1,
  model: { vocabSize: 512, dim: 128, nLayers: 4, nHeads: 4, nKvHeads: 4, ffnDim: 384, contextLength: 128, ropeBase: 10000, normEps: 1e-5 },
  tokenizerTexts: 4000,
  tokenizerSeed: 0,
  corpusSeed: 1,
  initSeed: 1,
  batchSize: 16,
  seqLen: 128,
  lossTokens: "all",
  schedule: { peak: 3e-3, warmupSteps: 100, totalSteps: 2000, finalFraction: 0.1 },
  weightDecay: 0.1,
  checkpointEvery: 100,
};

/** tiny-chat's shape with a 512-token context, trained on the curriculum (corpus version 2) in
 *  rows of 512 tokens: each step sees twice tiny-chat's tokens, and it takes 1.5 times the steps (about
 *  55 minutes on one core of this machine). */
export const TINY_CHAT_2_SETTINGS: RunSettings = {
  ...TINY_CHAT_SETTINGS,
  name: "tiny-chat-2",
  corpusVersion: 2,
  model: { ...TINY_CHAT_SETTINGS.model, contextLength: 512 },
  batchSize: 8,
  seqLen: 512,
  schedule: { ...TINY_CHAT_SETTINGS.schedule, totalSteps: 3000 },
};

export const BASE_SETTINGS: Record<string, RunSettings> = { "tiny-chat": TINY_CHAT_SETTINGS, "tiny-chat-2": TINY_CHAT_2_SETTINGS };

/** A saved run.json; runs saved before the curriculum were tiny-chat's. */
export const savedSettings = (saved: Partial<RunSettings>): RunSettings => ({ name: "tiny-chat", corpusVersion: 1, ...saved }) as RunSettings;
