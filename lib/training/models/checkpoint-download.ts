import fs from "node:fs";
import type { Principal } from "@/lib/auth/principal";
import { badRequest, notFound } from "@/lib/contract/errors";
import { getDb } from "@/lib/db/client";
import { writeZip } from "@/lib/engine/peft/zip";
import { attachment, streamFile } from "@/lib/contract/attachment";
import type { TrainableBaseModel } from "@/lib/inference/base-models";
import { absoluteCheckpointPath } from "@/lib/training/jobs/job-files";
import { trainableBase } from "@/lib/training/trainable-base";
import type { CheckpointDownloadFormat } from "./checkpoint-transfer-schemas";
import { findModelForCaller } from "./find-model";
import { mergedGgufResponse } from "./merged-gguf-export";
import { checkpointPeftFiles } from "@/lib/engine/peft/checkpoint-peft";
import { storedLoraSettings, type LoraSettings } from "@/lib/engine/model/lora-settings";

// GET /v1/preview/models/{model_id}/checkpoints/{step}/download: a checkpoint as a file other tools
// load. A LoRA checkpoint is its GGUF adapter (llama.cpp's --lora), the same adapter as a PEFT zip
// (Hugging Face PEFT, vLLM), or the base with it merged; a full-weights checkpoint is a whole GGUF.

const LORA_FORMATS: readonly CheckpointDownloadFormat[] = ["gguf-lora", "peft", "merged-gguf"];

interface DownloadContext {
  /** The file's name stem: `<model>-step<N>`. */
  stem: string;
  file: string;
  settings: LoraSettings;
  base: TrainableBaseModel;
}

export async function downloadCheckpoint(principal: Principal, modelId: string, step: number, requested: CheckpointDownloadFormat | undefined): Promise<Response> {
  return checkpointFileResponse(await findModelForCaller(principal, modelId, "use"), step, requested);
}

/** A checkpoint of this model as a download; also what a remote worker's lease starts from
 *  (lib/workers/lease-downloads.ts). */
export async function checkpointFileResponse(
  model: { id: string; name: string; lora: unknown; baseModel: string }, step: number, requested: CheckpointDownloadFormat | undefined,
): Promise<Response> {
  const modelId = model.id;
  const checkpoint = await getDb().checkpoint.findUnique({ where: { modelId_step: { modelId: model.id, step } }, select: { file: true, format: true } });
  if (!checkpoint) throw notFound(`Model '${modelId}' has no checkpoint at step ${step}.`);
  const stem = `${model.name}-step${step}`;
  const settings = storedLoraSettings(model.lora);
  if (checkpoint.format !== "lora" || !settings) {
    if (requested !== undefined && requested !== "gguf") {
      throw badRequest(`Step ${step} holds full weights, not a LoRA adapter: download it as format=gguf (a GGUF llama.cpp serves as it is).`);
    }
    return (await streamFile(absoluteCheckpointPath(checkpoint.file), { "content-type": "application/octet-stream", "content-disposition": attachment(`${stem}.gguf`) })) ?? gone(modelId, step);
  }
  const format = requested ?? "gguf-lora";
  if (!LORA_FORMATS.includes(format)) throw badRequest(`Step ${step} is a LoRA adapter: download it as format=${LORA_FORMATS.join(", format=")}.`);
  if (format === "gguf-lora") {
    return (await streamFile(absoluteCheckpointPath(checkpoint.file), { "content-type": "application/octet-stream", "content-disposition": attachment(`${stem}-lora.gguf`) })) ?? gone(modelId, step);
  }
  // The other forms need the base: its shapes (and its weights, to merge).
  const context = { stem, file: checkpoint.file, settings, base: await trainableBase(model.baseModel) };
  if (format === "peft") return peftZip(context, modelId, step);
  return mergedGguf(context, modelId, step);
}

function peftZip({ stem, file, settings, base }: DownloadContext, modelId: string, step: number): Response {
  if (!fs.existsSync(absoluteCheckpointPath(file))) gone(modelId, step);
  const zip = writeZip(checkpointPeftFiles({ adapterFile: absoluteCheckpointPath(file), settings, base }));
  return new Response(zip, {
    headers: { "content-type": "application/zip", "content-length": String(zip.length), "content-disposition": attachment(`${stem}-peft.zip`) },
  });
}

/** The base with the adapter merged, F16, streamed; one export at a time per process (429 beyond). */
function mergedGguf({ stem, file, base }: DownloadContext, modelId: string, step: number): Response {
  const adapterPath = absoluteCheckpointPath(file);
  if (!fs.existsSync(adapterPath)) gone(modelId, step);
  return mergedGgufResponse({ baseName: base.name, basePath: base.gguf, adapterPath, name: `${stem} (LoRA merged into ${base.name})`, filename: `${stem}-merged-f16.gguf` });
}

/** The row exists but its file is gone (deleted between the lookup and the read). */
function gone(modelId: string, step: number): never {
  throw notFound(`Model '${modelId}' has no checkpoint at step ${step}.`);
}
