import { splitProjectRef } from "@/lib/auth/names";
import type { Principal } from "@/lib/auth/principal";
import { resolveTeamAccess, teamIdsAllowing } from "@/lib/auth/team-access";
import { getDb } from "@/lib/db/client";
import { invalid } from "@/lib/contract/errors";
import { CURSOR_SELECT, pageByCreation } from "@/lib/contract/pagination";
import { findModelForCaller } from "@/lib/training/models/find-model";
import { toModelDto } from "@/lib/training/models/models";
import type { ListModelsQuery, ModelDetailDto } from "@/lib/training/models/schemas";

// Browsing models (Anneal's read endpoints for the console and scripts): the models of the teams
// the caller may use, each with its newest surviving checkpoint.

const MODEL_INCLUDE = {
  project: { select: { name: true, team: { select: { name: true } } } },
  checkpoints: { select: { step: true }, orderBy: { step: "desc" }, take: 1 },
} as const;

type ModelRow = Parameters<typeof toModelDto>[0] & { checkpoints: { step: number }[] };

function toModelDetailDto(row: ModelRow): ModelDetailDto {
  return { ...toModelDto(row), latest_checkpoint_step: row.checkpoints[0]?.step ?? null };
}

/** The teams (and maybe one project name) a listing covers: a named team the caller is not in is
 *  404, one where their role cannot use models 403; unfiltered, only the teams they may use. */
async function listingScope(principal: Principal, query: ListModelsQuery) {
  if (query.project) {
    const { team, project } = splitProjectRef(query.project);
    if (query.entity && query.entity !== team) {
      throw invalid(["query", "entity"], `entity '${query.entity}' is not the team of project '${query.project}'.`);
    }
    return { teamIds: [(await resolveTeamAccess(principal, team, "use")).team.id], project };
  }
  if (query.entity) return { teamIds: [(await resolveTeamAccess(principal, query.entity, "use")).team.id] };
  return { teamIds: await teamIdsAllowing(principal, "use") };
}

/** GET /v1/preview/models: a cursor page, newest first by default. */
export async function listModels(principal: Principal, query: ListModelsQuery) {
  const { teamIds, project } = await listingScope(principal, query);
  const scope = { project: { teamId: { in: teamIds }, ...(project ? { name: project } : {}) }, ...(query.name ? { name: query.name } : {}) };
  const db = getDb();
  return pageByCreation({
    query,
    findCursor: (id) => db.model.findFirst({ where: { id, ...scope }, select: CURSOR_SELECT }),
    findRows: ({ where, orderBy, take }) => db.model.findMany({ where: { AND: [scope, where] }, orderBy, take, include: MODEL_INCLUDE }),
    toDto: toModelDetailDto,
  });
}

/** GET /v1/preview/models/{id}: another team's model is a 404. */
export async function getModel(principal: Principal, modelId: string): Promise<ModelDetailDto> {
  const model = await findModelForCaller(principal, modelId, "use");
  const latest = await getDb().checkpoint.findFirst({ where: { modelId }, orderBy: { step: "desc" }, select: { step: true } });
  return toModelDetailDto({ ...model, checkpoints: latest ? [latest] : [] });
}
