import { z } from "zod";
import { DEFAULT_LORA_CONFIG, LORA_TARGET_OF_MODULE, MAX_LORA_DROPOUT, type LoraConfig, type LoraModule } from "./lora";

// A model's LoRA settings, fixed when it is created (`lora` on POST /v1/preview/models): the adapter's
// rank (vLLM's --max-lora-rank values, so every adapter Anneal writes loads there), alpha (scale
// alpha/rank), dropout on the adapter's input, and the projections it adapts, by their Hugging Face
// module names (PEFT's `target_modules`). Defaults follow published practice: rank 16, alpha 32,
// every attention and MLP projection, no dropout.

export const LORA_RANKS = [8, 16, 32, 64, 128, 256] as const;

/** Hugging Face module names, in the engine's order. */
const MODULE_NAMES = Object.keys(LORA_TARGET_OF_MODULE) as [LoraModule, ...LoraModule[]];

export const loraSettingsSchema = z
  .object({
    rank: z
      .number()
      .int()
      .refine((r) => (LORA_RANKS as readonly number[]).includes(r), `rank must be one of ${LORA_RANKS.join(", ")}`)
      .default(DEFAULT_LORA_CONFIG.rank)
      .describe(`Adapter rank, one of ${LORA_RANKS.join(", ")}.`),
    alpha: z.number().positive().finite().default(DEFAULT_LORA_CONFIG.alpha).describe("Scale numerator: the adapter's output is scaled by alpha / rank."),
    dropout: z.number().min(0).max(MAX_LORA_DROPOUT).default(DEFAULT_LORA_CONFIG.dropout).describe(`Dropout on the adapter's input while training, 0–${MAX_LORA_DROPOUT} (seeded: a resumed job is identical).`),
    target_modules: z
      .array(z.enum(MODULE_NAMES))
      .min(1)
      .default(MODULE_NAMES)
      .transform((modules) => MODULE_NAMES.filter((m) => modules.includes(m)))
      .describe(`Projections to adapt (Hugging Face names): ${MODULE_NAMES.join(", ")}. Default: all.`),
  })
  .describe("Train a LoRA adapter instead of full weights.");

export type LoraSettings = z.output<typeof loraSettingsSchema>;

/** The engine's form: projections by their GGUF weight suffix. */
export const engineLoraConfig = (s: LoraSettings): LoraConfig => ({
  rank: s.rank, alpha: s.alpha, dropout: s.dropout, targets: s.target_modules.map((m) => LORA_TARGET_OF_MODULE[m]),
});

/** As stored in Model.lora (null: full weights). */
export const storedLoraSettings = (value: unknown): LoraSettings | null => (value == null ? null : loraSettingsSchema.parse(value));

export const sameLoraSettings = (a: LoraSettings | null, b: LoraSettings | null) => JSON.stringify(a) === JSON.stringify(b);

export const describeLoraSettings = (s: LoraSettings | null) =>
  s ? `LoRA rank ${s.rank}, alpha ${s.alpha}, dropout ${s.dropout}, modules ${s.target_modules.join(", ")}` : "full weights";
