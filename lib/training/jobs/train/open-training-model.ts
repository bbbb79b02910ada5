// The model a training job trains and its optimizer, from the job's starting file: a LoRA model's
// base stays packed as its file stores it (frozen-base.ts) under its adapter (the newest one, or a
// fresh one whose A is drawn from `seed`); full weights train in float32. Shared by the job
// (run-training.ts) and bench:lora, which measures the job's own setup.
import { readPackedBase, readTrainableGguf, type TrainableGgufContents } from "@/lib/engine/gguf/llama-gguf";
import { readLoraGguf } from "@/lib/engine/gguf/lora-gguf";
import { AdamW } from "@/lib/engine/model/adamw";
import type { Weight } from "@/lib/engine/model/frozen-base";
import { LlamaModel } from "@/lib/engine/model/llama-model";
import type { LoraConfig } from "@/lib/engine/model/lora";
import { engineLoraConfig, type LoraSettings } from "@/lib/engine/model/lora-settings";
import { loadOptimizerState } from "./optimizer-state";

export interface TrainingModelStart {
  /** The base model or the newest full checkpoint (a LoRA model: its base). */
  startGguf: string;
  /** A LoRA model: its adapter settings, the adapter to continue (null: a fresh one) and the seed a
   *  fresh one is drawn from. */
  lora?: { settings: LoraSettings; startAdapter: string | null; seed: number } | null;
  /** The optimizer state saved with the checkpoint continued; none for a fresh start. */
  startOptimizer?: string | null;
}

export interface TrainingModel {
  start: TrainableGgufContents<Weight>;
  model: LlamaModel;
  optimizer: AdamW;
  /** The adapter's engine config; null when full weights train. */
  lora: LoraConfig | null;
}

export function openTrainingModel({ startGguf, lora, startOptimizer }: TrainingModelStart): TrainingModel {
  const start = lora ? readPackedBase(startGguf) : readTrainableGguf(startGguf);
  // The API gives a base Anneal did not make LoRA models only; a model created otherwise is refused here.
  if (!start.own && !lora) throw new Error("This model trains full weights, but its base was not made by Anneal: such a base trains LoRA adapters only.");
  const adapter = lora && {
    config: engineLoraConfig(lora.settings),
    seed: lora.seed,
    adapters: lora.startAdapter ? readLoraGguf(lora.startAdapter, start.config).adapters : undefined,
  };
  const model = new LlamaModel(start.config, { weights: start.weights, ...(adapter && { lora: adapter }) });
  // Fine-tuning: no decay toward zero of weights that pretraining put where they are.
  const optimizer = new AdamW(model.params, { weightDecay: 0 });
  if (startOptimizer) loadOptimizerState(startOptimizer, optimizer);
  return { start, model, optimizer, lora: adapter ? adapter.config : null };
}
