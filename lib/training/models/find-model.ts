import type { Capability, Principal } from "@/lib/auth/principal";
import { requireInReach } from "@/lib/auth/team-access";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/contract/errors";

/** A model by id, if it belongs to a team the caller may act in with `capability`; another
 *  team's model is a 404 that does not reveal it exists. */
export async function findModelForCaller(principal: Principal, modelId: string, capability: Capability) {
  const model = await getDb().model.findUnique({
    where: { id: modelId },
    include: { project: { include: { team: true } } },
  });
  return requireInReach(principal, model, (m) => m.project.teamId, capability, () => notFound(`Model '${modelId}' not found.`));
}
