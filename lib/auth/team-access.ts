import { memoAccess } from "@/lib/auth/access-cache";
import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/db/generated/enums";
import { forbidden, notFound } from "@/lib/contract/errors";
import { roleAllows, type Capability, type Principal } from "@/lib/auth/principal";

export interface TeamAccess {
  team: { id: string; name: string; personalFor: string | null };
  role: Role;
}

/**
 * The caller's access to a team by name. A team the caller is not in — or that their API key is
 * not scoped to — is a 404 that does not reveal whether it exists; a role lacking `capability`
 * is a 403.
 */
export async function resolveTeamAccess(
  principal: Principal,
  teamName: string,
  capability: Capability,
): Promise<TeamAccess> {
  const membership = await memoAccess(`member:${principal.user.id}:${teamName}`, () =>
    getDb().membership.findFirst({
      where: { userId: principal.user.id, team: { name: teamName } },
      select: { role: true, team: { select: { id: true, name: true, personalFor: true } } },
    }),
  );
  const scope = principal.apiKey?.teamId;
  if (!membership || (scope && scope !== membership.team.id)) throw notFound(`Team '${teamName}' not found.`);
  if (!roleAllows(membership.role, capability)) throw forbidden();
  return membership;
}

/** The teams a caller can act in (respecting an API key's team scope), with their role. */
export async function listAccessibleTeams(principal: Principal): Promise<TeamAccess[]> {
  const scope = principal.apiKey?.teamId;
  return getDb().membership.findMany({
    where: { userId: principal.user.id, ...(scope ? { teamId: scope } : {}) },
    select: { role: true, team: { select: { id: true, name: true, personalFor: true } } },
    orderBy: { team: { name: "asc" } },
  });
}

/** Ids of the teams where the caller's role allows `capability` (what a listing may cover). */
export async function teamIdsAllowing(principal: Principal, capability: Capability): Promise<string[]> {
  return (await listAccessibleTeams(principal)).filter((t) => roleAllows(t.role, capability)).map((t) => t.team.id);
}

/**
 * A resource looked up by id, if the caller may act on it: one that does not exist or belongs to a
 * team they cannot reach is `missing` (its 404, which does not reveal it exists); a role lacking
 * `capability` in its team is a 403.
 */
export async function requireInReach<T>(
  principal: Principal,
  resource: T | null,
  teamIdOf: (resource: T) => string,
  capability: Capability,
  missing: () => Error,
): Promise<T> {
  const access = resource && (await listAccessibleTeams(principal)).find((t) => t.team.id === teamIdOf(resource));
  if (!resource || !access) throw missing();
  if (!roleAllows(access.role, capability)) throw forbidden();
  return resource;
}
