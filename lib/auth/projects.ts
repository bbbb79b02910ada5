import { memoAccess } from "@/lib/auth/access-cache";
import { getDb } from "@/lib/db/client";
import { notFound } from "@/lib/contract/errors";
import { splitProjectRef } from "@/lib/auth/names";
import { resolveTeamAccess, type TeamAccess } from "@/lib/auth/team-access";
import type { Capability, Principal } from "@/lib/auth/principal";

export interface ProjectAccess extends TeamAccess {
  project: { id: string; name: string };
}

/**
 * Resolves `team/project` for the caller. Projects are created on first write: with `capability`
 * "use" (a write by a member or admin) a missing project is created; for reads it is a 404.
 */
export async function resolveProject(
  principal: Principal,
  ref: string,
  capability: Capability,
  { createIfMissing = capability === "use" }: { createIfMissing?: boolean } = {},
): Promise<ProjectAccess> {
  const { team: teamName, project: projectName } = splitProjectRef(ref);
  const access = await resolveTeamAccess(principal, teamName, capability);
  const db = getDb();
  const where = { teamId_name: { teamId: access.team.id, name: projectName } };
  // Projects are never renamed or deleted on their own, so a found one can be remembered.
  const existing = await memoAccess(`project:${access.team.id}:${projectName}`, () => db.project.findUnique({ where, select: { id: true, name: true } }));
  if (existing) return { ...access, project: existing };
  if (!createIfMissing) throw notFound(`Project '${ref}' not found.`);
  // ON CONFLICT DO NOTHING: concurrent first writes to one project must all succeed (an upsert
  // is find-then-create and races).
  await db.project.createMany({ data: [{ teamId: access.team.id, name: projectName }], skipDuplicates: true });
  const project = await db.project.findUniqueOrThrow({ where, select: { id: true, name: true } });
  return { ...access, project };
}

/** A caller's default team: the API key's team when it is scoped, else the owner's personal team. */
export async function defaultTeamName(principal: Principal): Promise<string> {
  const scope = principal.apiKey?.teamId;
  if (!scope) return principal.user.username;
  return (await memoAccess(`team:${scope}`, () => getDb().team.findUniqueOrThrow({ where: { id: scope }, select: { name: true } }))).name;
}

/** A caller's default project: `<default team>/default`. */
export async function defaultProjectRef(principal: Principal): Promise<string> {
  return `${await defaultTeamName(principal)}/default`;
}
