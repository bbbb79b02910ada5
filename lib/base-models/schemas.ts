import { z } from "zod";
import { baseModelName, hfNamesSchema } from "@/lib/inference/base-model-names";

// The base-models API (instance admins): every base the instance lists, GGUF files under
// ANNEAL_MODELS_DIR that could be added, adding one (stored in the database) and removing one.
// Paths are relative to ANNEAL_MODELS_DIR, or a file name: never an absolute path.

const trainModes = z.array(z.enum(["lora", "full"])).describe("What models of it can train: [] for a serve-only base.");

/** What the GGUF's header says (nulls for an upstream base, or a file that cannot be read). */
const ggufFacts = {
  architecture: z.string().nullable().describe("general.architecture, e.g. qwen2, llama."),
  parameters: z.number().int().nullable().describe("Elements of every tensor, summed."),
  context_length: z.number().int().nullable(),
  weight_type: z.string().nullable().describe('The file type llama.cpp names ("F16", "Q8_0", "Q4_K_M"), else the dominant ggml type.'),
  size_bytes: z.number().int().nullable(),
  train_modes: trainModes,
};

export const baseModelInfoSchema = z.object({
  id: z.string().uuid().nullable().describe("Database entries only: what DELETE takes. Shipped and models-file bases have none and cannot be removed here."),
  name: z.string(),
  hf_names: z.array(z.string()).describe("Hugging Face names that resolve to this base too."),
  source: z.enum(["shipped", "file", "database"]),
  kind: z.enum(["gguf", "upstream"]),
  file: z.string().nullable().describe("Database entries: the path relative to ANNEAL_MODELS_DIR; else the file's name; null for upstream bases."),
  ...ggufFacts,
  models_count: z.number().int().describe("Models of every team created from it."),
  shadowed: z.boolean().describe("A database entry whose name another base (the models file's) took since: listed, not served."),
  description: z.string(),
});
export type BaseModelInfo = z.infer<typeof baseModelInfoSchema>;

export const baseModelListSchema = z.object({ data: z.array(baseModelInfoSchema) });

export const baseModelCandidateSchema = z.object({
  file: z.string().describe("Relative to ANNEAL_MODELS_DIR: what POST takes."),
  ...ggufFacts,
  refusal: z.string().nullable().describe("Why Anneal cannot train it (null: it can); it can still be served."),
  registered_as: z.string().nullable().describe("The name of a base already serving this file, if any."),
});
export type BaseModelCandidate = z.infer<typeof baseModelCandidateSchema>;

export const baseModelCandidatesSchema = z.object({ data: z.array(baseModelCandidateSchema) });

export const createBaseModelBody = z.object({
  name: baseModelName,
  file: z.string().min(1).max(4096).describe("A GGUF file under ANNEAL_MODELS_DIR, relative to it (an absolute path inside it is taken too)."),
  hf_name: hfNamesSchema.optional().describe("A Hugging Face name or a list of them that resolve to this base too."),
  description: z.string().max(2000).optional(),
  trainable: z.boolean().optional().describe("Default: true when Anneal's trainer can train the file. true on a file it refuses is a 400 saying why."),
});

export const baseModelParams = z.object({ base_model_id: z.string().uuid() });

export const deletedBaseModelSchema = z.object({ id: z.string().uuid(), name: z.string() });
