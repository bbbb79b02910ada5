// The base model a job trains from: it must still be configured and trainable by the embedded
// engine (a llama-architecture GGUF marked trainable). Checked when a job is submitted (400) and
// again when it starts (the operator may have changed the models file in between).
import { badRequest } from "@/lib/contract/errors";
import { baseModelCatalogue, type GgufBaseModel, type LearningRates } from "@/lib/inference/base-models";
import type { ModelTrainingDefaults, TrainingMode } from "./model-defaults";

export function trainableBase(name: string): GgufBaseModel {
  const base = baseModelCatalogue().models.find((m) => m.name === name);
  if (!base) throw badRequest(`The base model '${name}' is no longer configured on this instance.`);
  if (base.kind !== "gguf" || !base.trainable) {
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

/** The rates a job with `learning_rate: null` trains at: the base's declared ones for the model's
 *  mode (full weights or a LoRA adapter). */
export function trainingDefaults(base: { learningRates?: LearningRates }, mode: TrainingMode): ModelTrainingDefaults {
  // docs/rl-loss.md: full fine-tuning of a small model wants ~1e-4-scale rates when a base declares none.
  const full = { rl: base.learningRates?.rl ?? 1e-4, sft: base.learningRates?.sft ?? 1e-4 };
  const rates = mode === "full" ? full : (base.learningRates?.lora ?? { rl: full.rl * LORA_RATE_FACTOR.rl, sft: full.sft * LORA_RATE_FACTOR.sft });
  return { defaultRlLearningRate: rates.rl, defaultSftLearningRate: rates.sft };
}
