import type { Capability, Principal } from "@/lib/auth/principal";
import { listAccessibleTeams } from "@/lib/auth/team-access";
import { roleAllows } from "@/lib/auth/principal";
import { getDb } from "@/lib/db/client";
import { forbidden, notFound } from "@/lib/http/errors";

/** A model by id, if it belongs to a team the caller may act in with `capability`; another
 *  team's model is a 404 that does not reveal it exists. */
export async function findModelForCaller(principal: Principal, modelId: string, capability: Capability) {
  const model = await getDb().model.findUnique({
    where: { id: modelId },
    include: { project: { include: { team: true } } },
  });
  const access = model && (await listAccessibleTeams(principal)).find((t) => t.team.id === model.project.teamId);
  if (!model || !access) throw notFound(`Model '${modelId}' not found.`);
  if (!roleAllows(access.role, capability)) throw forbidden();
  return model;
}
