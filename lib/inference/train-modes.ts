import { ggufTrainability } from "@/lib/engine/gguf/trainable-check";
import type { BaseModel } from "@/lib/inference/base-models";

// How models of a base may train: a base Anneal made (its own models, their checkpoints) trains full
// weights by default or a LoRA adapter; any other trainable base (a Qwen or Llama download) trains
// LoRA adapters only, as does a trainable upstream base (on remote workers); a serve-only base, neither.

export type TrainMode = "full" | "lora";

export function trainModes(base: BaseModel): TrainMode[] {
  if (!base.trainable || !base.gguf) return [];
  // An upstream base's GGUF is a reference (tokenizer, shapes, probe): remote workers train LoRA on it.
  if (base.kind === "upstream") return ["lora"];
  const trainability = ggufTrainability(base.gguf);
  return trainability?.trainable && !trainability.fullWeights ? ["lora"] : ["full", "lora"];
}
