// How many padded tokens one RL gradient step (one micro-batch) may hold: as many as keep the step's
// activations within a fixed memory bound, at most 8,192. The bound is per model: a token of
// Qwen2.5-0.5B's (LoRA, 24 layers recomputed one at a time) costs ~0.25 MB of activations, one of
// tiny-chat-2's a few kB, so the same token count cannot suit both (docs/operations.md, "Training memory").
import { activationBytesPerToken, STEP_ACTIVATION_BYTES } from "@/lib/engine/model/activations";
import type { LlamaConfig } from "@/lib/engine/model/config";
import type { LoraConfig } from "@/lib/engine/model/lora";

/** The most padded tokens of a step whatever the model (16 rows of a 512-token context). */
export const RL_MAX_TOKENS_PER_STEP = 8192;

/** Padded tokens per RL step for this model and mode (LoRA adapters, or null for full weights). */
export function rlTokensPerStep(config: LlamaConfig, lora: LoraConfig | null): number {
  return Math.max(1, Math.min(RL_MAX_TOKENS_PER_STEP, Math.floor(STEP_ACTIVATION_BYTES / activationBytesPerToken(config, lora))));
}
