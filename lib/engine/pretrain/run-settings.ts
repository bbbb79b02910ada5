// Everything that determines a pretraining run, saved beside its checkpoints so --resume continues
// the same run. The defaults are tiny-chat's: `npx tsx scripts/pretrain.ts` reproduces it.

import type { LlamaConfig } from "../model/config";
import type { LrSchedule } from "./lr-schedule";
import type { LossTokens } from "./packed-batch";

export interface RunSettings {
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

export const TINY_CHAT_SETTINGS: RunSettings = {
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
