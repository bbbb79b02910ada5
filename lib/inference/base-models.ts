import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { getEnv } from "@/lib/config/env";
import { AppError } from "@/lib/contract/errors";
import type { CorpusVersion } from "@/lib/engine/corpus/generate";
import { untrainableReason } from "@/lib/engine/gguf/trainable-check";

// The base models this instance serves: the shipped tiny-chat-2 and tiny-chat (trainable by Anneal's
// own engine) and GGUF files the operator lists in ANNEAL_MODELS_FILE. ANNEAL_DEFAULT_MODEL names the one a
// request without `model` gets (else the first listed).

interface BaseModelCommon {
  name: string;
  /** Anneal's embedded trainer can fine-tune it. */
  trainable: boolean;
  description: string;
  /** Declared defaults for `learning_rate: null` (trainable models). */
  learningRates?: LearningRates;
  /** The corpus it was pretrained on: its held-out prompts are what SFT's knowledge probe asks
   *  before and after a job (lib/training/sft/knowledge-probe.ts). */
  probeCorpus?: CorpusVersion;
}

/** A base's rates for full fine-tuning, and for LoRA adapters when measured (else lib/training/trainable-base.ts
 *  derives them from the full rates); a base that trains LoRA only (not Anneal's) gives its LoRA rates as rl and sft. */
export interface LearningRates {
  rl: number;
  sft: number;
  lora?: { rl: number; sft: number };
}

/** Served by the embedded engine (node-llama-cpp). */
export interface GgufBaseModel extends BaseModelCommon {
  kind: "gguf";
  /** Absolute path of the GGUF file. */
  gguf: string;
}

/** Served by an OpenAI-compatible server (vLLM, llama.cpp server, another Anneal). */
export interface UpstreamBaseModel extends BaseModelCommon {
  kind: "upstream";
  /** Its API base, ending in /v1. */
  baseUrl: string;
  /** The model's name there. */
  upstreamModel: string;
  apiKey?: string;
}

export type BaseModel = GgufBaseModel | UpstreamBaseModel;

const shippedGguf = (file: string) =>
  // Resolved at run time from the working directory; turbopackIgnore keeps the build from tracing the repo.
  path.resolve(/* turbopackIgnore: true */ process.cwd(), "models", file);

/** The default base: 512 tokens of context, pretrained on the graded curriculum (models/tiny-chat-2.md). */
export const TINY_CHAT_2: GgufBaseModel = {
  kind: "gguf",
  name: "anneal/tiny-chat-2",
  gguf: shippedGguf("tiny-chat-2.gguf"),
  trainable: true,
  description: "Anneal's own 1M-parameter chat model, 512-token context, graded task curriculum (models/tiny-chat-2.md); fully fine-tunable on CPU",
  // models/tiny-chat-2.md: SFT measured by its sweep; RL is tiny-chat's measured rate (same shape and optimizer).
  // LoRA (rank 16, alpha 32, every projection), measured through bench:learn (docs/decisions.md, "LoRA on
  // tiny-chat-2"): RL learns as full weights do at 5×; SFT's best rate is full's own.
  learningRates: { rl: 1e-4, sft: 3e-3, lora: { rl: 5e-4, sft: 3e-3 } },
  probeCorpus: 2,
};

/** The first tiny-chat (128-token context): still listed, so its users' models keep serving and training. */
export const TINY_CHAT: GgufBaseModel = {
  kind: "gguf",
  name: "anneal/tiny-chat",
  gguf: shippedGguf("tiny-chat.gguf"),
  trainable: true,
  description: "Anneal's first 1M-parameter chat model, 128-token context (models/tiny-chat.md); fully fine-tunable on CPU",
  // models/tiny-chat.md: SFT measured by a sweep; RL measured by RL on a correctness reward (1e-3 collapses it).
  learningRates: { rl: 1e-4, sft: 3e-3 },
  probeCorpus: 1,
};

/** Shipped in models/, default first. */
export const SHIPPED_MODELS: readonly GgufBaseModel[] = [TINY_CHAT_2, TINY_CHAT];

const modelName = z.string().min(1).regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/, "letters, digits, . _ - and /");
const modelsFileSchema = z.array(
  z.union([
    z.object({
      name: modelName,
      gguf: z.string().min(1),
      description: z.string().default(""),
      /** Only for llama-architecture F32 GGUFs written by Anneal (e.g. an exported checkpoint). */
      trainable: z.boolean().default(false),
      /** Full fine-tuning's rates; `lora` for LoRA models (absent: the full rates × LORA_RATE_FACTOR). A base
       *  that trains LoRA only (a Qwen or Llama download) has no full rates: rl and sft are its LoRA rates. */
      learning_rates: z
        .object({ rl: z.number().positive(), sft: z.number().positive(), lora: z.object({ rl: z.number().positive(), sft: z.number().positive() }).optional() })
        .optional(),
    }),
    z.object({
      name: modelName,
      upstream: z.string().url().describe("The server's OpenAI API base, e.g. http://vllm:8000/v1"),
      upstream_model: z.string().min(1).optional(),
      /** The name of an environment variable holding the upstream's API key (keys stay out of files). */
      api_key_env: z.string().min(1).optional(),
      description: z.string().default(""),
    }),
  ]),
);

type ModelsFileEntry = z.output<typeof modelsFileSchema>[number];

// The file is parsed again only when it changes (it is consulted on every request).
let cachedFile: { path: string; mtimeMs: number; entries: ModelsFileEntry[] } | undefined;

function readModelsFile(file: string): ModelsFileEntry[] {
  const mtimeMs = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  if (cachedFile?.path === file && cachedFile.mtimeMs === mtimeMs) return cachedFile.entries;
  // Messages name the setting, not the file's path: a client sees them as a 503.
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new AppError("unavailable", `ANNEAL_MODELS_FILE cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"}).`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new AppError("unavailable", `ANNEAL_MODELS_FILE is not JSON: ${(error as Error).message}`);
  }
  const result = modelsFileSchema.safeParse(parsed);
  if (!result.success) {
    throw new AppError("unavailable", `ANNEAL_MODELS_FILE: ${result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  cachedFile = { path: file, mtimeMs, entries: result.data };
  return result.data;
}

/** A listed model; an upstream's key is read from its environment variable on each use. */
function toBaseModel(m: ModelsFileEntry, file: string): BaseModel {
  if ("upstream" in m) {
    const apiKey = m.api_key_env ? process.env[m.api_key_env] : undefined;
    if (m.api_key_env && !apiKey) throw new AppError("unavailable", `ANNEAL_MODELS_FILE: ${m.name} reads its API key from $${m.api_key_env}, which is not set.`);
    return {
      kind: "upstream",
      name: m.name,
      baseUrl: m.upstream.replace(/\/+$/, ""),
      upstreamModel: m.upstream_model ?? m.name,
      apiKey,
      trainable: false,
      description: m.description || `served by ${new URL(m.upstream).host}`,
    };
  }
  const gguf = path.resolve(path.dirname(path.resolve(file)), m.gguf);
  // "trainable" is a promise that jobs on this base will run: refused here, not by a job later.
  const refusal = m.trainable ? untrainableReason(gguf) : null;
  if (refusal) {
    throw new AppError("unavailable", `ANNEAL_MODELS_FILE lists '${m.name}' with "trainable": true, but Anneal cannot train it: ${refusal}. Remove "trainable" to serve it without training.`);
  }
  return {
    kind: "gguf",
    name: m.name,
    gguf,
    trainable: m.trainable,
    description: m.description || `GGUF model ${path.basename(m.gguf)}`,
    ...(m.learning_rates && { learningRates: m.learning_rates }),
  };
}

export interface Catalogue {
  models: BaseModel[];
  defaultModel: BaseModel | undefined;
}

/** The catalogue, in listing order; files are checked when a model is loaded, except that a file
 *  listed as trainable must be one the trainer reads (its header is checked once per version). */
export function baseModelCatalogue(): Catalogue {
  const env = getEnv();
  const models = [
    ...SHIPPED_MODELS.filter((m) => fs.existsSync(m.gguf)),
    ...(env.ANNEAL_MODELS_FILE ? readModelsFile(env.ANNEAL_MODELS_FILE).map((m) => toBaseModel(m, env.ANNEAL_MODELS_FILE!)) : []),
  ];
  const defaultModel = env.ANNEAL_DEFAULT_MODEL ? models.find((m) => m.name === env.ANNEAL_DEFAULT_MODEL) : models[0];
  if (env.ANNEAL_DEFAULT_MODEL && !defaultModel) {
    throw new AppError("unavailable", `ANNEAL_DEFAULT_MODEL '${env.ANNEAL_DEFAULT_MODEL}' is not a listed base model (${models.map((m) => m.name).join(", ") || "none"}).`);
  }
  return { models, defaultModel };
}
