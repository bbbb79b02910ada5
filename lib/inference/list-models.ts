import type { Principal } from "@/lib/auth/principal";
import { teamIdsAllowing } from "@/lib/auth/team-access";
import { getDb } from "@/lib/db/client";
import { baseModelCatalogue, findBaseModel } from "@/lib/inference/base-models";
import { trainModes } from "@/lib/inference/train-modes";

// GET /v1/models: base models first (the default marked), then the trained models of every team
// the caller may use, named as chat completions takes them.

export async function listModels(principal: Principal) {
  const { models, defaultModel } = await baseModelCatalogue();
  const trained = await getDb().model.findMany({
    where: { project: { teamId: { in: await teamIdsAllowing(principal, "use") } } },
    select: { name: true, baseModel: true, createdAt: true, project: { select: { name: true, team: { select: { name: true } } } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const startedAt = Math.floor(Date.now() / 1000);
  return {
    object: "list" as const,
    data: [
      ...models.map((m) => ({
        id: m.name, object: "model" as const, created: startedAt, owned_by: "anneal", root: m.name, parent: null,
        trainable: m.trainable, train_modes: trainModes(m), default: m === defaultModel, description: m.description,
      })),
      ...trained.map((m) => {
        const id = `${m.project.team.name}/${m.project.name}/${m.name}`;
        const trainable = findBaseModel(models, m.baseModel)?.trainable ?? false;
        return { id, object: "model" as const, created: Math.floor(m.createdAt.getTime() / 1000), owned_by: m.project.team.name, root: id, parent: m.baseModel, trainable, default: false };
      }),
    ],
  };
}
