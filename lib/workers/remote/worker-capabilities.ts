// What a remote Node worker offers at each lease request: both kinds, both modes, and the bases of its
// own catalogue Anneal's trainer can train (the shipped ones and ANNEAL_MODELS_FILE's, read without a
// database), each by its name and its Hugging Face names, so a server that knows the base by either
// finds it.
import os from "node:os";
import { configuredBaseModels, findBaseModel, namesOf, type GgufBaseModel } from "@/lib/inference/base-models";
import { trainsLocally } from "@/lib/training/trainable-base";
import { LORA_RANKS } from "@/lib/engine/model/lora-settings";

export interface WorkerCapabilities {
  kinds: ("sft" | "rl")[];
  modes: ("lora" | "full")[];
  bases: string[];
  max_rank: number;
  memory_bytes: number;
}

/** The bases this worker holds and can train. */
export function localTrainableBases(): GgufBaseModel[] {
  return configuredBaseModels().filter(trainsLocally);
}

export function workerCapabilities(bases: readonly GgufBaseModel[]): WorkerCapabilities {
  return { kinds: ["sft", "rl"], modes: ["lora", "full"], bases: bases.flatMap(namesOf), max_rank: Math.max(...LORA_RANKS), memory_bytes: os.totalmem() };
}

/** The local base a lease or probe names (by its name or a Hugging Face name). */
export function localBase(bases: readonly GgufBaseModel[], ...names: (string | null | undefined)[]): GgufBaseModel {
  for (const name of names) {
    const base = name ? findBaseModel(bases, name) : undefined;
    if (base) return base as GgufBaseModel;
  }
  throw new Error(`This worker holds no base named ${names.filter(Boolean).join(" or ")}.`);
}
