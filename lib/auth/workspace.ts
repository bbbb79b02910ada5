import { getDb } from "@/lib/db/client";
import type { Principal } from "@/lib/auth/principal";
import type { WorkspaceDto } from "@/lib/auth/schemas";
import { listAccessibleTeams, resolveTeamAccess, type TeamAccess } from "@/lib/auth/team-access";

// The console's workspace: the team and project a user works in, remembered per user (so it
// follows them across browsers). Without a remembered choice — or when they have left that team —
// a user lands in the first team they were added to that is not their personal team (an invited
// annotator lands where they annotate), else in their personal team.

export const DEFAULT_PROJECT = "default";

const toWorkspaceDto = (access: TeamAccess, project: string): WorkspaceDto => ({
  team: access.team.name,
  role: access.role,
  personal: access.team.personalFor !== null,
  project,
});

export async function getWorkspace(principal: Principal): Promise<WorkspaceDto> {
  const [user, teams] = await Promise.all([
    getDb().user.findUniqueOrThrow({
      where: { id: principal.user.id },
      select: { workspaceTeamId: true, workspaceProject: true },
    }),
    listAccessibleTeams(principal),
  ]);
  const remembered = teams.find((t) => t.team.id === user.workspaceTeamId);
  if (remembered) return toWorkspaceDto(remembered, user.workspaceProject ?? DEFAULT_PROJECT);
  const fallback = teams.find((t) => t.team.personalFor === null) ?? teams[0];
  // Every user has a personal team, and a scoped key its team: `teams` is never empty.
  return toWorkspaceDto(fallback, DEFAULT_PROJECT);
}

/** Selects a team (404 when the caller is not in it) and a project name of that team. */
export async function setWorkspace(principal: Principal, input: { team: string; project: string }): Promise<WorkspaceDto> {
  const access = await resolveTeamAccess(principal, input.team, "annotate");
  await getDb().user.update({
    where: { id: principal.user.id },
    data: { workspaceTeamId: access.team.id, workspaceProject: input.project },
  });
  return toWorkspaceDto(access, input.project);
}
