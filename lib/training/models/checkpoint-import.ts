import fs from "node:fs";
import { randomUUID } from "node:crypto";
import type { Principal } from "@/lib/auth/principal";
import { AppError, badRequest, conflict, invalid } from "@/lib/contract/errors";
import { MiB } from "@/lib/contract/body-limits";
import { getDb } from "@/lib/db/client";
import { readLoraGguf, writeLoraGguf } from "@/lib/engine/gguf/lora-gguf";
import { str } from "@/lib/engine/gguf/values";
import type { LlamaConfig } from "@/lib/engine/model/config";
import { LORA_TARGET_OF_MODULE, loraSites, type LoraAdapter, type LoraModule } from "@/lib/engine/model/lora";
import { AdapterMismatchError, AdapterTooLargeError, MalformedAdapterError } from "@/lib/engine/peft/adapter-errors";
import { readPeftZip } from "@/lib/engine/peft/peft-adapter";
import { adapterSize } from "@/lib/training/estimate/adapter-size";
import { readBaseShape } from "@/lib/training/estimate/base-shape";
import { refuseWhileTraining } from "@/lib/training/jobs/active-jobs";
import { absoluteCheckpointPath, importedCheckpointFileFor } from "@/lib/training/jobs/job-files";
import { trainableBase } from "@/lib/training/trainable-base";
import { findModelForCaller } from "./find-model";
import { engineLoraConfig, LORA_RANKS, storedLoraSettings, type LoraSettings } from "@/lib/engine/model/lora-settings";
import { recordCheckpoint } from "./record-checkpoint";

// POST /v1/preview/models/{model_id}/checkpoints: an adapter trained elsewhere — a zipped PEFT
// directory or a GGUF LoRA, told apart by their first bytes — becomes the model's next checkpoint,
// exactly as a job's would: written as Anneal's GGUF adapter (F32, the model's name), current_step
// advanced, served at once and trained on by the next job. It must be what the model's own jobs
// write: the base's architecture and shapes, the model's rank, alpha and modules in every layer.
// A malformed file is a 422 at ["body"], an adapter that does not fit a 400, one that unpacks past
// what this model's adapter can be a 413.

export type ImportSource = "peft" | "gguf-lora";

const GGUF_MAGIC = "GGUF";
const ZIP_MAGICS = ["PK\x03\x04", "PK\x05\x06"];
/** What a zip may hold beyond the adapter's F32 tensors: adapter_config.json, a README, headers. */
const ZIP_SLACK_BYTES = 1 * MiB;

export async function importCheckpoint(principal: Principal, modelId: string, upload: Uint8Array, requestedStep: number | undefined) {
  const model = await findModelForCaller(principal, modelId, "use");
  if (!storedLoraSettings(model.lora)) throw badRequest(`Model '${model.name}' trains full weights: it cannot take a LoRA adapter. Create a model with \`lora\` settings to import one.`);
  await refuseWhileTraining(model.id, "import a checkpoint");
  if (requestedStep !== undefined && requestedStep <= model.currentStep) {
    throw conflict(`Step ${requestedStep} is not after the model's current step ${model.currentStep}; name a later step or leave step out.`);
  }
  const file = importedCheckpointFileFor(model.id, randomUUID());
  const modelName = `${model.project.team.name}/${model.project.name}/${model.name}`;
  const source = await writeImportedAdapter({ ...model, fullName: modelName }, upload, file);
  try {
    const checkpoint = await getDb().$transaction(async (tx) => {
      const step = await recordCheckpoint(tx, { modelId: model.id, step: requestedStep, metrics: {}, file, format: "lora" });
      return tx.checkpoint.findUniqueOrThrow({ where: { modelId_step: { modelId: model.id, step } } });
    });
    return { id: checkpoint.id, step: checkpoint.step, format: "lora" as const, source, created_at: checkpoint.createdAt.toISOString() };
  } catch (error) {
    fs.rmSync(absoluteCheckpointPath(file), { force: true });
    throw error;
  }
}

/** Checks an adapter trained elsewhere against the LoRA model it is for and writes it, as Anneal's
 *  GGUF adapter, to `file` (relative to the checkpoints directory); the caller records it. Shared by
 *  the import route and a remote worker's complete (lib/workers/complete-remote-job.ts). */
export async function writeImportedAdapter(
  model: { id: string; name: string; lora: unknown; baseModel: string; fullName: string }, upload: Uint8Array, file: string,
): Promise<ImportSource> {
  const settings = storedLoraSettings(model.lora);
  if (!settings) throw badRequest(`Model '${model.name}' trains full weights: it cannot take a LoRA adapter.`);
  const base = await trainableBase(model.baseModel);
  const { config } = readBaseShape(base.gguf);
  const source = sourceOf(upload);
  const path = absoluteCheckpointPath(file);
  fs.mkdirSync(absoluteCheckpointPath(model.id), { recursive: true });
  try {
    const { adapters, alpha } = readUpload(source, upload, path, config, adapterSize(config, settings).bytes + ZIP_SLACK_BYTES);
    checkFits(config, settings, adapters, alpha);
    writeLoraGguf(path, { config, adapters, alpha, metadata: { "general.name": str(model.fullName), "anneal.import.source": str(source) } });
    return source;
  } catch (error) {
    fs.rmSync(path, { force: true });
    throw error;
  }
}

function sourceOf(upload: Uint8Array): ImportSource {
  const head = Buffer.from(upload.subarray(0, 4)).toString("latin1");
  if (head === GGUF_MAGIC) return "gguf-lora";
  if (ZIP_MAGICS.includes(head)) return "peft";
  throw invalid(["body"], "The body is neither a zip of a PEFT adapter directory nor a GGUF LoRA adapter.", "adapter_invalid");
}

/** The upload's adapters in GGUF's layout, its errors as the contract's. */
function readUpload(source: ImportSource, upload: Uint8Array, path: string, config: LlamaConfig, maxUnpackedBytes: number) {
  try {
    if (source === "peft") return readPeftZip(upload, config, maxUnpackedBytes);
    // The GGUF reader reads files: the upload goes where the checkpoint will be, and is rewritten there.
    fs.writeFileSync(path, upload);
    return readLoraGguf(path, config);
  } catch (error) {
    if (error instanceof AdapterMismatchError) throw badRequest(`The adapter does not fit this model: ${error.message}.`);
    if (error instanceof AdapterTooLargeError) throw new AppError("payload_too_large", `The upload is larger than this model's adapter: ${error.message}.`);
    // The GGUF reader's own errors (not a GGUF, truncated, an unknown type) are the file's, and name no path.
    if (error instanceof MalformedAdapterError || source === "gguf-lora") throw invalid(["body"], `Not a valid ${source === "peft" ? "PEFT zip" : "GGUF LoRA"}: ${(error as Error).message}.`, "adapter_invalid");
    throw error;
  }
}

const moduleNames = (weights: Iterable<string>): LoraModule[] => {
  const targets = new Set([...weights].map((w) => w.split(".")[2]));
  return (Object.keys(LORA_TARGET_OF_MODULE) as LoraModule[]).filter((m) => targets.has(LORA_TARGET_OF_MODULE[m]));
};

/** The adapter is what this model's jobs write: its rank and alpha, its modules in every layer. */
function checkFits(config: LlamaConfig, settings: LoraSettings, adapters: Record<string, LoraAdapter>, alpha: number): void {
  const ranks = [...new Set(Object.values(adapters).map((a) => a.rank))];
  const rank = ranks.length === 1 ? ranks[0] : undefined;
  if (rank === undefined) throw badRequest(`The adapter has ${ranks.length ? `ranks ${ranks.join(", ")}` : "no projections"}; an adapter has one rank.`);
  if (!(LORA_RANKS as readonly number[]).includes(rank)) throw badRequest(`The adapter's rank ${rank} is not one Anneal trains (${LORA_RANKS.join(", ")}).`);
  if (rank !== settings.rank) throw badRequest(`The adapter's rank is ${rank}; this model's adapters are rank ${settings.rank} (its LoRA settings).`);
  // A GGUF stores alpha as float32: 0.1 there is 0.1 here.
  if (Math.fround(alpha) !== Math.fround(settings.alpha)) throw badRequest(`The adapter's alpha is ${alpha}; this model's is ${settings.alpha} (its LoRA settings).`);
  const expected = loraSites(config, engineLoraConfig(settings)).map((s) => s.weight);
  const missing = expected.filter((w) => !adapters[w]);
  const extra = Object.keys(adapters).filter((w) => !expected.includes(w));
  if (missing.length || extra.length) {
    const got = moduleNames(Object.keys(adapters));
    throw badRequest(
      `The adapter adapts ${got.join(", ") || "nothing"}${missing.length ? ` (missing in ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""})` : ""}; ` +
        `this model adapts ${settings.target_modules.join(", ")} in each of its base's ${config.nLayers} layers (its LoRA settings).`,
    );
  }
}
