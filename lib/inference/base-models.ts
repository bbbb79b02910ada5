import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { getEnv } from "@/lib/config/env";
import { dataPaths } from "@/lib/config/paths";
import { AppError } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import { baseModelName, hfNamesSchema } from "@/lib/inference/base-model-names";
import type { CorpusVersion } from "@/lib/engine/corpus/generate";
import { untrainableReason } from "@/lib/engine/gguf/trainable-check";

// The base models this instance serves: the shipped tiny-chat-3, tiny-chat-2 and tiny-chat (trainable by Anneal's
// own engine), GGUF files and upstream servers the operator lists in ANNEAL_MODELS_FILE, then GGUF files
// under ANNEAL_MODELS_DIR an admin registered through the API (the BaseModelEntry table, read by every
// process). A base is named by its name or any of its Hugging Face names (`hf_name`); ANNEAL_DEFAULT_MODEL
// names the one a request without `model` gets (else the first listed).

/** Where a base is listed: shipped in models/, ANNEAL_MODELS_FILE, or the database (the API). */
export type BaseModelSource = "shipped" | "file" | "database";

interface BaseModelCommon {
  name: string;
  /** Hugging Face names that resolve to it as well (ART's `TrainableModel(base_model=…)` sends one). */
  hfNames: string[];
  source: BaseModelSource;
  /** A database entry's id (the API removes it by id); the other sources have none. */
  entryId?: string;
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
  /** Absolute path of a GGUF of the same weights (any type): the base's shapes, never served. */
  gguf?: string;
  /** How vLLM serves its models' LoRA checkpoints (lib/inference/upstream-adapters.ts). */
  lora?: UpstreamLora;
}

/** A vLLM base's adapters: Anneal writes each checkpoint's PEFT directory under writeDir, and vLLM
 *  (started with --enable-lora) loads it from vllmDir, the same directory as vLLM's machine names it. */
export interface UpstreamLora {
  /** Absolute. */
  writeDir: string;
  /** As vLLM sees it (a path on its machine). */
  vllmDir: string;
  /** Adapters kept loaded at once; the least recently used is unloaded beyond it (vLLM's --max-loras). */
  maxLoras: number;
  /** The largest rank vLLM loads (its --max-lora-rank): higher-rank models' jobs are refused. */
  maxRank: number;
}

export type BaseModel = GgufBaseModel | UpstreamBaseModel;

/** A base whose models train: a GGUF the embedded trainer reads, or an upstream base (trained by remote
 *  workers only) with the GGUF of its weights that Anneal tokenizes and probes with. */
export type TrainableBaseModel = GgufBaseModel | (UpstreamBaseModel & { gguf: string });

const shippedGguf = (file: string) =>
  // Resolved at run time from the working directory; turbopackIgnore keeps the build from tracing the repo.
  path.resolve(/* turbopackIgnore: true */ process.cwd(), "models", file);

/** 512 tokens of context, pretrained on the graded curriculum (models/tiny-chat-2.md); the default base until tiny-chat-3. */
export const TINY_CHAT_2: GgufBaseModel = {
  kind: "gguf",
  name: "anneal/tiny-chat-2",
  hfNames: [],
  source: "shipped",
  gguf: shippedGguf("tiny-chat-2.gguf"),
  trainable: true,
  description: "Anneal's own 1M-parameter chat model, 512-token context, graded task curriculum (models/tiny-chat-2.md); fully fine-tunable on CPU",
  // models/tiny-chat-2.md: SFT measured by its sweep; RL is tiny-chat's measured rate (same shape and optimizer).
  // LoRA (rank 16, alpha 32, every projection), measured through bench:learn (docs/decisions.md, "LoRA on
  // tiny-chat-2"): RL learns as full weights do at 5×; SFT's best rate is full's own.
  learningRates: { rl: 1e-4, sft: 3e-3, lora: { rl: 5e-4, sft: 3e-3 } },
  probeCorpus: 2,
};

/** The default base: tiny-chat-2 continued on replies in formats asked for (models/tiny-chat-3.md), so
 *  that a small SFT job teaching a format keeps what the base knew (docs/decisions.md, "A base that
 *  has met reply formats"). */
export const TINY_CHAT_3: GgufBaseModel = {
  kind: "gguf",
  name: "anneal/tiny-chat-3",
  hfNames: [],
  source: "shipped",
  gguf: shippedGguf("tiny-chat-3.gguf"),
  trainable: true,
  description: "Anneal's own 1M-parameter chat model, 512-token context, graded task curriculum, follows reply formats (models/tiny-chat-3.md); fully fine-tunable on CPU",
  // SFT: the rate at which the console's 30-example jobs (3 epochs) take a new format and keep the
  // base's answers within 2 points (3e-4 loses up to 22, 3e-3 up to 67: docs/decisions.md). RL and
  // LoRA: tiny-chat-2's (same shape and optimizer), LoRA's SFT rate at full's as measured there.
  learningRates: { rl: 1e-4, sft: 1e-4, lora: { rl: 5e-4, sft: 1e-4 } },
  probeCorpus: 2,
};

/** The first tiny-chat (128-token context): still listed, so its users' models keep serving and training. */
export const TINY_CHAT: GgufBaseModel = {
  kind: "gguf",
  name: "anneal/tiny-chat",
  hfNames: [],
  source: "shipped",
  gguf: shippedGguf("tiny-chat.gguf"),
  trainable: true,
  description: "Anneal's first 1M-parameter chat model, 128-token context (models/tiny-chat.md); fully fine-tunable on CPU",
  // models/tiny-chat.md: SFT measured by a sweep; RL measured by RL on a correctness reward (1e-3 collapses it).
  learningRates: { rl: 1e-4, sft: 3e-3 },
  probeCorpus: 1,
};

/** Shipped in models/, default first. */
export const SHIPPED_MODELS: readonly GgufBaseModel[] = [TINY_CHAT_3, TINY_CHAT_2, TINY_CHAT];

/** Full fine-tuning's rates; `lora` for LoRA models (absent: the full rates × LORA_RATE_FACTOR). A base
 *  that trains LoRA only (a Qwen or Llama download) has no full rates: rl and sft are its LoRA rates. */
const learningRatesSchema = z
  .object({ rl: z.number().positive(), sft: z.number().positive(), lora: z.object({ rl: z.number().positive(), sft: z.number().positive() }).optional() })
  .optional();

const upstreamEntry = z
  .object({
    name: baseModelName,
    hf_name: hfNamesSchema.default([]),
    upstream: z.string().url().describe("The server's OpenAI API base, e.g. http://vllm:8000/v1"),
    upstream_model: z.string().min(1).optional(),
    /** The name of an environment variable holding the upstream's API key (keys stay out of files). */
    api_key_env: z.string().min(1).optional(),
    description: z.string().default(""),
    /** A GGUF of the same weights (relative to the file): Anneal reads the base's shapes from its header. */
    gguf: z.string().min(1).optional(),
    /** Its models train LoRA adapters on remote workers (docs/workers.md); needs `gguf`, whose vocabulary
     *  tokenizes their jobs and against which a worker's copy of the base is probed. */
    trainable: z.boolean().default(false),
    learning_rates: learningRatesSchema,
    /** vLLM serves the LoRA checkpoints of this base's models (docs/operations.md, "GPU topology"). */
    lora: z
      .object({
        write_dir: z.string().min(1).describe("Where Anneal writes adapters (relative to the file), a directory vLLM reads too"),
        vllm_dir: z.string().min(1).describe("The same directory as vLLM's machine names it"),
        max_loras: z.number().int().positive().describe("vLLM's --max-loras"),
        max_rank: z.number().int().positive().describe("vLLM's --max-lora-rank"),
      })
      .strict()
      .optional(),
  });

const modelsFileSchema = z.array(
  z.union([
    upstreamEntry,
    z.object({
      name: baseModelName,
      hf_name: hfNamesSchema.default([]),
      gguf: z.string().min(1),
      /** An entry naming an upstream is an upstream's, even when its other fields do not parse. */
      upstream: z.never().optional(),
      description: z.string().default(""),
      /** Only for llama-architecture F32 GGUFs written by Anneal (e.g. an exported checkpoint). */
      trainable: z.boolean().default(false),
      learning_rates: learningRatesSchema,
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

/** A path in the models file: relative to the file's folder. */
const besideFile = (file: string, listed: string) => path.resolve(path.dirname(path.resolve(file)), listed);

/** A listed model; an upstream's key is read from its environment variable on each use. */
function toBaseModel(m: ModelsFileEntry, file: string): BaseModel {
  if (m.upstream !== undefined) {
    const apiKey = m.api_key_env ? process.env[m.api_key_env] : undefined;
    if (m.api_key_env && !apiKey) throw new AppError("unavailable", `ANNEAL_MODELS_FILE: ${m.name} reads its API key from $${m.api_key_env}, which is not set.`);
    // Adapters are written in the base's shapes, which only a GGUF of it tells Anneal.
    if (m.lora && !m.gguf) throw new AppError("unavailable", `ANNEAL_MODELS_FILE: ${m.name} has \`lora\` but no \`gguf\`: an upstream entry with \`lora\` needs a GGUF of the same weights, for the adapters' shapes.`);
    const gguf = m.gguf && besideFile(file, m.gguf);
    if (m.trainable) {
      const refusal = gguf ? untrainableReason(gguf) : "it names no `gguf` of the same weights, which tokenizes its jobs and checks the workers' copies";
      if (refusal) throw new AppError("unavailable", `ANNEAL_MODELS_FILE lists '${m.name}' with "trainable": true, but its jobs cannot be prepared: ${refusal}.`);
    }
    return {
      kind: "upstream",
      name: m.name,
      hfNames: m.hf_name,
      source: "file",
      baseUrl: m.upstream.replace(/\/+$/, ""),
      upstreamModel: m.upstream_model ?? m.name,
      apiKey,
      trainable: m.trainable,
      description: m.description || `served by ${new URL(m.upstream).host}`,
      ...(gguf && { gguf }),
      ...(m.learning_rates && { learningRates: m.learning_rates }),
      ...(m.lora && { lora: { writeDir: besideFile(file, m.lora.write_dir), vllmDir: m.lora.vllm_dir, maxLoras: m.lora.max_loras, maxRank: m.lora.max_rank } }),
    };
  }
  const gguf = besideFile(file, m.gguf);
  // "trainable" is a promise that jobs on this base will run: refused here, not by a job later.
  const refusal = m.trainable ? untrainableReason(gguf) : null;
  if (refusal) {
    throw new AppError("unavailable", `ANNEAL_MODELS_FILE lists '${m.name}' with "trainable": true, but Anneal cannot train it: ${refusal}. Remove "trainable" to serve it without training.`);
  }
  return {
    kind: "gguf",
    name: m.name,
    hfNames: m.hf_name,
    source: "file",
    gguf,
    trainable: m.trainable,
    description: m.description || `GGUF model ${path.basename(m.gguf)}`,
    ...(m.learning_rates && { learningRates: m.learning_rates }),
  };
}

/** A base's names: the one it is listed by, then its Hugging Face names. */
export const namesOf = (base: BaseModel): string[] => [base.name, ...base.hfNames];

/** The base a client names, by its name or one of its Hugging Face names. */
export function findBaseModel(models: readonly BaseModel[], requested: string): BaseModel | undefined {
  return models.find((m) => m.name === requested || m.hfNames.includes(requested));
}

/** What an unknown base's 400 lists: every name a client may use (never a path). */
export function availableBaseNames(models: readonly BaseModel[]): string {
  return models.map((m) => (m.hfNames.length ? `${m.name} (${m.hfNames.join(", ")})` : m.name)).join(", ") || "none";
}

/** The shipped models and ANNEAL_MODELS_FILE's entries. Two of them claiming one name (or Hugging Face
 *  name) is the operator's mistake: refused, naming both (npm start stops; requests are 503s). */
export function configuredBaseModels(): BaseModel[] {
  const env = getEnv();
  const shipped = SHIPPED_MODELS.filter((m) => fs.existsSync(m.gguf));
  const listed = env.ANNEAL_MODELS_FILE ? readModelsFile(env.ANNEAL_MODELS_FILE).map((m) => toBaseModel(m, env.ANNEAL_MODELS_FILE!)) : [];
  const models: BaseModel[] = [...shipped, ...listed];
  const label = (i: number) =>
    i < shipped.length ? `the shipped model '${models[i].name}'` : `ANNEAL_MODELS_FILE's entry ${i - shipped.length + 1} ('${models[i].name}')`;
  const claimedBy = new Map<string, number>();
  models.forEach((m, i) => {
    for (const name of namesOf(m)) {
      const owner = claimedBy.get(name);
      if (owner !== undefined && owner !== i) {
        throw new AppError("unavailable", `Two base models claim the name '${name}': ${label(owner)} and ${label(i)}. Each name and hf_name must be listed once.`);
      }
      claimedBy.set(name, i);
    }
  });
  return models;
}

/** A database entry as the catalogue reads it. */
export interface BaseModelRow {
  id: string;
  name: string;
  hfNames: string[];
  file: string;
  description: string;
  trainable: boolean;
}

function rowToBaseModel(row: BaseModelRow, modelsDir: string): GgufBaseModel {
  return {
    kind: "gguf",
    name: row.name,
    hfNames: row.hfNames,
    source: "database",
    entryId: row.id,
    gguf: path.resolve(modelsDir, row.file),
    trainable: row.trainable,
    description: row.description || `GGUF model ${path.basename(row.file)}`,
  };
}

/** The configured bases, then the database's in the order they were added; a database entry with a name
 *  (or Hugging Face name) already claimed — the models file listed it since, or a concurrent registration
 *  took it — is shadowed: listed by the API, never served. */
export function mergeBaseModels(configured: readonly BaseModel[], rows: readonly BaseModelRow[], modelsDir: string): { models: BaseModel[]; shadowed: GgufBaseModel[] } {
  const claimed = new Set(configured.flatMap(namesOf));
  const models = [...configured];
  const shadowed: GgufBaseModel[] = [];
  for (const row of rows) {
    const base = rowToBaseModel(row, modelsDir);
    if (namesOf(base).some((name) => claimed.has(name))) {
      shadowed.push(base);
      continue;
    }
    namesOf(base).forEach((name) => claimed.add(name));
    models.push(base);
  }
  return { models, shadowed };
}

// The database's entries, read again once they are older than this: another process's registration is
// served within it, and a request costs a Map lookup rather than a query. On globalThis: npm start loads
// this module twice (its scripts, Next's bundle), and a write through one copy must reach the other.
const ROWS_TTL_MS = 1_000;
const rowsKey = Symbol.for("anneal.baseModelRows");
type RowsCache = { [rowsKey]?: { readAt: number; rows: Promise<BaseModelRow[]> } };
const rowsCache = globalThis as RowsCache;

function databaseRows(): Promise<BaseModelRow[]> {
  const cached = rowsCache[rowsKey];
  if (cached && Date.now() - cached.readAt < ROWS_TTL_MS) return cached.rows;
  const rows = getDb().baseModelEntry.findMany({
    select: { id: true, name: true, hfNames: true, file: true, description: true, trainable: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  rowsCache[rowsKey] = { readAt: Date.now(), rows };
  // A failed read is not kept: the next call tries again.
  rows.catch(() => {
    if (rowsCache[rowsKey]?.rows === rows) delete rowsCache[rowsKey];
  });
  return rows;
}

/** After this process added or removed an entry: its next request reads the table. */
export function forgetDatabaseBaseModels(): void {
  delete rowsCache[rowsKey];
}

export interface Catalogue {
  models: BaseModel[];
  defaultModel: BaseModel | undefined;
  /** Database entries whose name another base has: listed by the API, not served. */
  shadowed: GgufBaseModel[];
}

/** The catalogue, in listing order; files are checked when a model is loaded, except that a file
 *  listed as trainable must be one the trainer reads (its header is checked once per version). */
export async function baseModelCatalogue(): Promise<Catalogue> {
  const env = getEnv();
  const { models, shadowed } = mergeBaseModels(configuredBaseModels(), await databaseRows(), dataPaths(env).models);
  const defaultModel = env.ANNEAL_DEFAULT_MODEL ? findBaseModel(models, env.ANNEAL_DEFAULT_MODEL) : models[0];
  if (env.ANNEAL_DEFAULT_MODEL && !defaultModel) {
    throw new AppError("unavailable", `ANNEAL_DEFAULT_MODEL '${env.ANNEAL_DEFAULT_MODEL}' is not a listed base model (${models.map((m) => m.name).join(", ") || "none"}).`);
  }
  return { models, defaultModel, shadowed };
}
