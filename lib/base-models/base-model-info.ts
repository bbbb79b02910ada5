import fs from "node:fs";
import path from "node:path";
import { dataPaths } from "@/lib/config/paths";
import { ggufSummary } from "@/lib/engine/gguf/gguf-summary";
import { ggufTrainability } from "@/lib/engine/gguf/trainable-check";
import type { BaseModel } from "@/lib/inference/base-models";
import { trainModes, type TrainMode } from "@/lib/inference/train-modes";
import type { BaseModelCandidate, BaseModelInfo } from "./schemas";

// A base as the API shows it, and a GGUF under ANNEAL_MODELS_DIR as a candidate: facts from the header
// (cached per version of the file), what the trainer says of it. No absolute path leaves here.

type Facts = Pick<BaseModelInfo, "architecture" | "parameters" | "context_length" | "weight_type" | "size_bytes">;
const NO_FACTS: Facts = { architecture: null, parameters: null, context_length: null, weight_type: null, size_bytes: null };

/** The header's facts, or the reason it cannot be read (no path in it). */
export function ggufFacts(file: string): { facts: Facts; unreadable: string | null } {
  try {
    const s = ggufSummary(file);
    return { facts: { architecture: s.architecture, parameters: s.parameters, context_length: s.contextLength, weight_type: s.weightType, size_bytes: s.sizeBytes }, unreadable: null };
  } catch (error) {
    return { facts: NO_FACTS, unreadable: (error as Error).message };
  }
}

export function toBaseModelInfo(base: BaseModel, modelsCount: number, shadowed: boolean): BaseModelInfo {
  const gguf = base.kind === "gguf" && fs.existsSync(base.gguf) ? base.gguf : null;
  return {
    id: base.entryId ?? null,
    name: base.name,
    hf_names: base.hfNames,
    source: base.source,
    kind: base.kind,
    file: base.kind !== "gguf" ? null : base.source === "database" ? path.relative(dataPaths().models, base.gguf) : path.basename(base.gguf),
    ...(gguf ? ggufFacts(gguf).facts : NO_FACTS),
    train_modes: trainModes(base),
    models_count: modelsCount,
    shadowed,
    description: base.description,
  };
}

export function toCandidate(file: { relative: string; absolute: string }, registeredAs: string | null): BaseModelCandidate {
  const { facts, unreadable } = ggufFacts(file.absolute);
  const trainability = unreadable === null ? ggufTrainability(file.absolute) : null;
  const modes: TrainMode[] = trainability?.trainable ? (trainability.fullWeights ? ["full", "lora"] : ["lora"]) : [];
  const refusal = unreadable ?? (trainability && !trainability.trainable ? trainability.reason : null);
  return { file: file.relative, ...facts, train_modes: modes, refusal, registered_as: registeredAs };
}
