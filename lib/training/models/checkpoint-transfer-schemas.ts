import { z } from "zod";
import { modelParams } from "./schemas";

// Checkpoints in and out of Anneal: download one in a format other tools load, upload an adapter
// trained elsewhere as a new checkpoint.

export const CHECKPOINT_DOWNLOAD_FORMATS = ["gguf-lora", "peft", "merged-gguf", "gguf"] as const;
export type CheckpointDownloadFormat = (typeof CHECKPOINT_DOWNLOAD_FORMATS)[number];

export const checkpointParams = modelParams.extend({
  step: z.coerce.number().int().min(1).max(2 ** 31 - 1).describe("The checkpoint's step."),
});

export const checkpointDownloadQuery = z.object({
  format: z
    .enum(CHECKPOINT_DOWNLOAD_FORMATS)
    .optional()
    .describe(
      "gguf-lora: the adapter as llama.cpp loads it (--lora); peft: a zip of a Hugging Face PEFT directory (PEFT, vLLM); " +
        "merged-gguf: the base with the adapter merged, F16; gguf: a full-weights checkpoint's GGUF. Default: the checkpoint's own file " +
        "(gguf-lora for a LoRA checkpoint, gguf for full weights).",
    ),
});

export const checkpointImportQuery = z.object({
  step: z.coerce.number().int().min(1).max(2 ** 31 - 1).optional().describe("The new checkpoint's step, above the model's current_step; default current_step + 1."),
});

/** The uploaded file: a zipped PEFT directory or a GGUF LoRA, told apart by their first bytes. */
export const checkpointImportBody = z.instanceof(Uint8Array);

export const importedCheckpointSchema = z.object({
  id: z.string().uuid(),
  step: z.number().int(),
  format: z.literal("lora"),
  source: z.enum(["peft", "gguf-lora"]).describe("What the upload was."),
  created_at: z.string(),
});
