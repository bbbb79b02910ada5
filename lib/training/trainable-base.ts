// The base model a job trains from: it must still be configured and trainable by the embedded
// engine (a llama-architecture GGUF marked trainable). Checked when a job is submitted (400) and
// again when it starts (the operator may have changed the models file in between).
import { badRequest } from "@/lib/contract/errors";
import { baseModelCatalogue, findBaseModel, type BaseModel, type GgufBaseModel, type LearningRates, type TrainableBaseModel } from "@/lib/inference/base-models";
import { trainModes, type TrainMode } from "@/lib/inference/train-modes";
import type { ModelTrainingDefaults } from "./model-defaults";

export async function trainableBase(name: string): Promise<TrainableBaseModel> {
  return trainableBaseOf((await baseModelCatalogue()).models, name);
}

const isTrainable = (base: BaseModel): base is TrainableBaseModel => base.trainable && base.gguf !== undefined;

/** A base the embedded runner and database-attached workers train: a trainable GGUF it serves itself
 *  (an upstream base's models train on remote workers only). */
export const trainsLocally = (base: BaseModel): base is GgufBaseModel => base.kind === "gguf" && trainModes(base).length > 0;

/** The trainable base of that name among these. */
export function trainableBaseOf(models: readonly BaseModel[], name: string): TrainableBaseModel {
  const base = findBaseModel(models, name);
  if (!base) throw badRequest(`The base model '${name}' is no longer configured on this instance.`);
  if (!isTrainable(base)) {
    throw badRequest(`The base model '${name}' is serve-only: this instance cannot train it. Create the model from a trainable base (GET /v1/models lists them).`);
  }
  return base;
}

/** A LoRA model's rates when its base declares none for LoRA: its full fine-tuning rates × these.
 *  Published practice is ~10× for both (Thinking Machines' "LoRA Without Regret", Tinker's cookbook);
 *  measured on tiny-chat-2 (docs/decisions.md, "LoRA on tiny-chat-2"), RL learns as full weights do
 *  at 5× (30× costs the curriculum 13 points), and SFT's best rate over 30 steps is full's own
 *  (10× ends with a higher held-out loss and looping replies). */
export const LORA_RATE_FACTOR = { rl: 5, sft: 1 } as const;

/** The rates a job with `learning_rate: null` trains at, for the model's mode (full weights or a
 *  LoRA adapter) on this base. */
export function trainingDefaults(base: TrainableBaseModel, mode: TrainMode): ModelTrainingDefaults {
  const { rl, sft } = defaultRates(base.learningRates, mode, trainModes(base).includes("full"));
  return { defaultRlLearningRate: rl, defaultSftLearningRate: sft };
}

/** A base's declared rates for a mode. `fullWeightsBase`: the base trains full weights too (Anneal's
 *  own), so its rates are full fine-tuning's and LoRA's are derived from them; a base that trains LoRA
 *  only (a Qwen or Llama download) declares LoRA rates as its rates. */
export function defaultRates(declared: LearningRates | undefined, mode: TrainMode, fullWeightsBase: boolean): { rl: number; sft: number } {
  // docs/rl-loss.md: full fine-tuning of a small model wants ~1e-4-scale rates when a base declares none.
  const own = { rl: declared?.rl ?? 1e-4, sft: declared?.sft ?? 1e-4 };
  if (mode === "full") return own;
  if (declared?.lora) return declared.lora;
  return fullWeightsBase ? { rl: own.rl * LORA_RATE_FACTOR.rl, sft: own.sft * LORA_RATE_FACTOR.sft } : own;
}
