// The end of a pretraining run: write the GGUF, measure held-out accuracy and the SFT learning
// rate, and write the model card.
import fs from "node:fs";
import path from "node:path";
import { writeLlamaGguf } from "../gguf/llama-gguf";
import { str, u32 } from "../gguf/values";
import type { LlamaModel } from "../model/llama-model";
import type { Tokenizer } from "../tokenizer/tokenizer";
import { evaluateHeldout } from "./evaluate-heldout";
import { modelCard } from "./model-card";
import type { RunSettings, Trained } from "./run-settings";
import { sweepSftLearningRate } from "./sft-lr-sweep";
import { baseModelFiles } from "./tiny-chat-files";

export interface FinishInput {
  model: LlamaModel;
  tokenizer: Tokenizer;
  settings: RunSettings;
  trained: Trained;
  heldoutLoss: number;
  log(line: string): void;
}

export const SFT_SWEEP = { rates: [1e-4, 3e-4, 1e-3, 3e-3, 1e-2], steps: 30, batchSize: 8, seed: 5 };

export function finishBaseModel({ model, tokenizer, settings, trained, heldoutLoss, log }: FinishInput): void {
  const files = baseModelFiles(settings.name);
  fs.mkdirSync(path.dirname(files.gguf), { recursive: true });
  writeLlamaGguf(files.gguf, {
    config: model.config,
    weights: model.params.weights(),
    tokenizer,
    name: settings.name,
    metadata: {
      "anneal.training.step": u32(trained.step),
      "anneal.training.corpus_seed": u32(settings.corpusSeed),
      "anneal.training.corpus_version": u32(settings.corpusVersion),
      "general.description": str(`Anneal ${settings.name}: pretrained by scripts/pretrain.ts on Anneal's task corpus${settings.startFrom ? `, continued from ${settings.startFrom}` : ""}`),
    },
  });
  log(`wrote ${files.gguf} (${(fs.statSync(files.gguf).size / 1e6).toFixed(1)} MB)`);
  let started = performance.now();
  const scores = evaluateHeldout(model, tokenizer, { seed: 11, perFamily: 100, version: settings.corpusVersion, replyFormats: Boolean(settings.replyFormats) });
  const evalSeconds = (performance.now() - started) / 1000;
  for (const s of scores) log(`held-out ${s.family}${s.level ? ` level ${s.level}` : ""}${s.formatted ? " in a format asked for" : ""}: ${s.correct}/${s.total} correct, ${s.endedTurn}/${s.total} ended the turn`);
  started = performance.now();
  const sweep = sweepSftLearningRate(model, tokenizer, SFT_SWEEP);
  for (const p of sweep.points) log(`SFT lr ${p.lr}: held-out loss ${sweep.before.toFixed(3)} → ${p.heldoutLoss.toFixed(3)}`);
  log(`evaluation ${evalSeconds.toFixed(0)} s, SFT sweep ${((performance.now() - started) / 1000).toFixed(0)} s`);
  fs.writeFileSync(files.card, modelCard({ config: model.config, parameters: model.params.count, settings, trained, heldoutLoss, scores, sweep, sweepOptions: SFT_SWEEP }));
  log(`wrote ${files.card}`);
}
