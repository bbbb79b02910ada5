import { ggufTrainability } from "@/lib/engine/gguf/trainable-check";
import type { BaseModel } from "@/lib/inference/base-models";

// How models of a base may train: a base Anneal made (its own models, their checkpoints) trains full
// weights by default or a LoRA adapter; any other trainable base (a Qwen or Llama download) trains
// LoRA adapters only; a serve-only base, neither.

export type TrainMode = "full" | "lora";

export function trainModes(base: BaseModel): TrainMode[] {
  if (base.kind !== "gguf" || !base.trainable) return [];
  const trainability = ggufTrainability(base.gguf);
  return trainability?.trainable && !trainability.fullWeights ? ["lora"] : ["full", "lora"];
}
