import path from "node:path";
import { dataPaths } from "@/lib/config/paths";
import type { Principal } from "@/lib/auth/principal";
import { resolveTeamAccess } from "@/lib/auth/team-access";
import { getDb } from "@/lib/db/client";
import type { AdapterRef } from "@/lib/engine/serving/model-registry";
import { AppError } from "@/lib/contract/errors";
import { baseModelCatalogue, findBaseModel, type BaseModel, type GgufBaseModel, type UpstreamBaseModel } from "@/lib/inference/base-models";
import { upstreamAdapterName, type UpstreamAdapterRef } from "@/lib/inference/upstream-adapters";
import { storedLoraSettings } from "@/lib/engine/model/lora-settings";

// An inference name → the weights that serve it (docs/contract.md "Inference names"): a base model's
// name; `entity/project/name` (its newest checkpoint) or `entity/project/name:stepN` (step 0 = the
// base model), also behind any `<scheme>-artifact:///` prefix (ART sends wandb-artifact:///…).

/** A trained model's weights: which model, which step, and its project (`team/project`: where its
 *  calls are recorded unless the caller names another). */
export interface TrainedRef {
  modelId: string;
  step: number;
  project: string;
}

/** What serves an inference name: the embedded engine with these weights, or an upstream server
 *  (with one of its LoRA adapters). */
export type ResolvedModel = { servedName: string; trained?: TrainedRef } & (
  | { base: GgufBaseModel; gguf: string; adapter?: AdapterRef }
  | { base: UpstreamBaseModel; lora?: UpstreamAdapterRef }
);

export type EmbeddedModel = Extract<ResolvedModel, { gguf: string }>;
export type UpstreamModel = Extract<ResolvedModel, { base: UpstreamBaseModel }>;

export function modelNotFound(name: string): AppError {
  return new AppError("not_found", `The model \`${name}\` does not exist.`);
}

const ARTIFACT_PREFIX = /^[a-z][a-z0-9+.-]*-artifact:\/\/\/?\/?/i;
const TRAINED_NAME = /^([^/:]+)\/([^/:]+)\/([^/:]+)(?::step(\d+))?$/;

export async function resolveModel(principal: Principal, requested: string | undefined): Promise<ResolvedModel> {
  const { models, defaultModel } = await baseModelCatalogue();
  if (requested === undefined) {
    if (!defaultModel) throw new AppError("unavailable", "No base model is configured: ship models/tiny-chat-3.gguf (npm run pretrain -- --base tiny-chat-3) or set ANNEAL_MODELS_FILE.");
    return asBase(defaultModel);
  }
  const base = findBaseModel(models, requested);
  if (base) return asBase(base);

  const name = requested.replace(ARTIFACT_PREFIX, "");
  const match = TRAINED_NAME.exec(name);
  if (!match) throw modelNotFound(requested);
  const [, entity, project, modelName, stepText] = match;
  const access = await resolveTeamAccess(principal, entity, "use").catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") throw modelNotFound(requested);
    throw error;
  });
  const model = await getDb().model.findFirst({
    where: { name: modelName, project: { name: project, teamId: access.team.id } },
    select: { id: true, baseModel: true, lora: true },
  });
  if (!model) throw modelNotFound(requested);
  const modelBase = findBaseModel(models, model.baseModel);
  if (!modelBase) throw new AppError("unavailable", `Base model '${model.baseModel}' of \`${name}\` is no longer configured on this instance.`);

  const step = stepText === undefined ? undefined : Number(stepText);
  const checkpoint =
    step === 0
      ? null
      : await getDb().checkpoint.findFirst({
          where: { modelId: model.id, ...(step === undefined ? {} : { step }) },
          orderBy: { step: "desc" },
          select: { id: true, step: true, file: true, format: true },
        });
  if (step !== undefined && step > 0 && !checkpoint) throw modelNotFound(requested);
  const servedName = `${entity}/${project}/${modelName}:step${checkpoint?.step ?? 0}`;
  const trained = { modelId: model.id, step: checkpoint?.step ?? 0, project: `${entity}/${project}` };
  if (modelBase.kind === "upstream") {
    if (!checkpoint) return { servedName, base: modelBase, trained };
    return { servedName, base: modelBase, trained, lora: upstreamAdapterOf(modelBase, { entity, project, name: modelName, lora: model.lora }, checkpoint) };
  }
  if (!checkpoint) return { servedName, base: modelBase, gguf: modelBase.gguf, trained };
  const file = path.resolve(dataPaths().checkpoints, checkpoint.file);
  return checkpoint.format === "lora"
    ? { servedName, base: modelBase, gguf: modelBase.gguf, adapter: { path: file }, trained }
    : { servedName, base: modelBase, gguf: file, trained };
}

/** A checkpoint of an upstream base's model: a LoRA adapter its vLLM loads, when the base's entry has a `lora` block. */
function upstreamAdapterOf(
  base: UpstreamBaseModel,
  model: { entity: string; project: string; name: string; lora: unknown },
  checkpoint: { id: string; step: number; file: string; format: string },
): UpstreamAdapterRef {
  const settings = storedLoraSettings(model.lora);
  if (!base.lora || !base.gguf || checkpoint.format !== "lora" || !settings) {
    throw new AppError(
      "not_implemented",
      `Checkpoints of the upstream base model '${base.name}' cannot be served: its models-file entry has no \`lora\` block (vLLM serving adapters: docs/operations.md, "GPU topology").`,
    );
  }
  return {
    name: upstreamAdapterName(model, checkpoint.step, checkpoint.id),
    lora: base.lora,
    checkpoint: { adapterFile: path.resolve(dataPaths().checkpoints, checkpoint.file), settings, base: { name: base.name, hfNames: base.hfNames, gguf: base.gguf } },
  };
}

function asBase(base: BaseModel): ResolvedModel {
  return base.kind === "gguf" ? { servedName: base.name, base, gguf: base.gguf } : { servedName: base.name, base };
}
