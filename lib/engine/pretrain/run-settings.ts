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
  /** A shipped base whose weights and tokenizer the run continues (models/<startFrom>.gguf); absent:
   *  from scratch, with a tokenizer trained on the corpus. */
  startFrom?: string;
  corpusVersion: CorpusVersion;
  /** Share of conversations whose replies are in a format they ask for (corpus/reply-formats.ts). */
  replyFormats?: number;
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

/** The default base since #29 (docs/decisions.md, "A base that has met reply formats"): tiny-chat-2
 *  continued on the same curriculum where half of the conversations ask for their replies in a format
 *  (a tag pair, a prefix, brackets), the loss on the assistant's tokens, so that a job teaching a
 *  format teaches where the answer goes rather than the answer again. New conversations (corpus seed
 *  3), 3,000 steps (~50 minutes on one core; 1,200 kept too little). Measured: it keeps tiny-chat-2's
 *  answers (68.8% on bench:learn's prompts, 71.9% before), and 30-example jobs at 1e-4 × 3 epochs take
 *  the `<answer>` format and keep them within 2 points. */
export const TINY_CHAT_3_SETTINGS: RunSettings = {
  ...TINY_CHAT_2_SETTINGS,
  name: "tiny-chat-3",
  startFrom: "tiny-chat-2",
  replyFormats: 0.5,
  lossTokens: "assistant",
  corpusSeed: 3,
  schedule: { peak: 1e-3, warmupSteps: 30, totalSteps: 3000, finalFraction: 0.1 },
};

export const BASE_SETTINGS: Record<string, RunSettings> = { "tiny-chat": TINY_CHAT_SETTINGS, "tiny-chat-2": TINY_CHAT_2_SETTINGS, "tiny-chat-3": TINY_CHAT_3_SETTINGS };

/** A saved run.json; runs saved before the curriculum were tiny-chat's. */
export const savedSettings = (saved: Partial<RunSettings>): RunSettings => ({ name: "tiny-chat", corpusVersion: 1, ...saved }) as RunSettings;
