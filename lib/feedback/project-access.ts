import { splitProjectRef } from "@/lib/auth/names";
import { roleAllows, type Principal } from "@/lib/auth/principal";
import { resolveProject, type ProjectAccess } from "@/lib/auth/projects";
import { resolveTeamAccess } from "@/lib/auth/team-access";

// Feedback is written by every role of a team (annotators included); a project is created on
// its first write only by a caller who may use the team (members and admins), as elsewhere.

export async function resolveFeedbackProject(principal: Principal, ref: string, { write }: { write: boolean }): Promise<ProjectAccess> {
  if (!write) return resolveProject(principal, ref, "annotate", { createIfMissing: false });
  const access = await resolveTeamAccess(principal, splitProjectRef(ref).team, "annotate");
  return resolveProject(principal, ref, "annotate", { createIfMissing: roleAllows(access.role, "use") });
}

/** Members and admins act on any feedback of their team's projects; annotators only on their own. */
export const mayActOnOthersFeedback = (access: ProjectAccess) => roleAllows(access.role, "use");
