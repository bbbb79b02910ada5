import type { Principal } from "@/lib/auth/principal";
import { defaultTeamName, resolveProject } from "@/lib/auth/projects";
import { getDb } from "@/lib/db/client";
import { badRequest, conflict } from "@/lib/contract/errors";
import { availableBaseNames, baseModelCatalogue, findBaseModel } from "@/lib/inference/base-models";
import { trainModes } from "@/lib/inference/train-modes";
import { removeCheckpointFiles } from "@/lib/training/jobs/job-files";
import { refuseWhileTraining } from "@/lib/training/jobs/active-jobs";
import { findModelForCaller } from "@/lib/training/models/find-model";
import type { ModelDto } from "@/lib/training/models/schemas";
import { describeLoraSettings, loraSettingsSchema, sameLoraSettings, storedLoraSettings, type LoraSettings } from "@/lib/engine/model/lora-settings";

type ModelRow = {
  id: string; name: string; baseModel: string; runId: string; currentStep: number; lora: unknown; createdAt: Date;
  project: { name: string; team: { name: string } };
};

export function toModelDto(m: ModelRow): ModelDto {
  return {
    id: m.id,
    entity: m.project.team.name,
    project: m.project.name,
    name: m.name,
    base_model: m.baseModel,
    run_id: m.runId,
    current_step: m.currentStep,
    lora: storedLoraSettings(m.lora),
    created_at: m.createdAt.toISOString(),
  };
}

export interface CreateModelInput {
  entity?: string;
  project: string;
  name: string;
  base_model: string;
  return_existing: boolean;
  lora: LoraSettings | null;
}

/** POST /v1/preview/models: the same (entity, project, name) again is the existing model with
 *  return_existing (409 if its base or training mode differs), else 409. */
export async function createModel(principal: Principal, input: CreateModelInput): Promise<ModelDto> {
  const { models } = await baseModelCatalogue();
  const base = findBaseModel(models, input.base_model);
  if (!base) throw badRequest(`Unknown base_model '${input.base_model}'. Available: ${availableBaseNames(models)}.`);
  // A base Anneal did not make trains LoRA only: without settings, its models take the defaults.
  const modes = trainModes(base);
  const lora = input.lora ?? (modes.length > 0 && !modes.includes("full") ? loraSettingsSchema.parse({}) : null);
  const entity = input.entity ?? (await defaultTeamName(principal));
  const { project } = await resolveProject(principal, `${entity}/${input.project}`, "use");
  const include = { project: { select: { name: true, team: { select: { name: true } } } } } as const;
  const existing = await getDb().model.findUnique({ where: { projectId_name: { projectId: project.id, name: input.name } }, include });
  if (existing) {
    if (!input.return_existing) throw conflict(`Model '${entity}/${input.project}/${input.name}' exists; pass return_existing: true to get it.`);
    // The row keeps the canonical name: ART asking again by a Hugging Face name gets it back.
    if (existing.baseModel !== base.name) {
      throw conflict(`Model '${entity}/${input.project}/${input.name}' exists with base_model '${existing.baseModel}', not '${input.base_model}'.`);
    }
    const existingLora = storedLoraSettings(existing.lora);
    if (!sameLoraSettings(existingLora, lora)) {
      throw conflict(`Model '${entity}/${input.project}/${input.name}' exists and trains ${describeLoraSettings(existingLora)}, not ${describeLoraSettings(lora)}.`);
    }
    return toModelDto(existing);
  }
  const created = await getDb().model.create({
    data: { projectId: project.id, name: input.name, baseModel: base.name, ...(lora && { lora }) },
    include,
  });
  return toModelDto(created);
}

/** DELETE /v1/preview/models/{id}: the model, its checkpoints (and their files), logs and metrics. */
export async function deleteModel(principal: Principal, modelId: string) {
  const model = await findModelForCaller(principal, modelId, "use");
  await refuseWhileTraining(model.id, "delete the model");
  const checkpoints = await getDb().checkpoint.findMany({ where: { modelId }, select: { file: true } });
  await getDb().model.delete({ where: { id: model.id } });
  for (const c of checkpoints) removeCheckpointFiles(c.file);
  return { model_id: model.id, deleted_checkpoints: checkpoints.length, deleted_run: true };
}
