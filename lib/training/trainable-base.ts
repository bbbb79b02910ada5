// The base model a job trains from: it must still be configured and trainable by the embedded
// engine (a llama-architecture GGUF marked trainable). Checked when a job is submitted (400) and
// again when it starts (the operator may have changed the models file in between).
import { badRequest } from "@/lib/contract/errors";
import { baseModelCatalogue, type GgufBaseModel } from "@/lib/inference/base-models";
import type { ModelTrainingDefaults } from "./model-defaults";

export function trainableBase(name: string): GgufBaseModel {
  const base = baseModelCatalogue().models.find((m) => m.name === name);
  if (!base) throw badRequest(`The base model '${name}' is no longer configured on this instance.`);
  if (base.kind !== "gguf" || !base.trainable) {
    throw badRequest(`The base model '${name}' is serve-only: this instance cannot train it. Create the model from a trainable base (GET /v1/models lists them).`);
  }
  return base;
}

export function trainingDefaults(base: { learningRates?: { rl: number; sft: number } }): ModelTrainingDefaults {
  // docs/rl-loss.md: full fine-tuning of a small model wants ~1e-4-scale rates when a base declares none.
  return { defaultRlLearningRate: base.learningRates?.rl ?? 1e-4, defaultSftLearningRate: base.learningRates?.sft ?? 1e-4 };
}
