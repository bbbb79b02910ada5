import type { Principal } from "@/lib/auth/principal";
import { defaultProjectRef } from "@/lib/auth/projects";
import { listAccessibleTeams } from "@/lib/auth/team-access";
import { getDb } from "@/lib/db/client";
import { toUserDto } from "@/lib/auth/users";

export async function describeCaller(principal: Principal) {
  const user = await getDb().user.findUniqueOrThrow({
    where: { id: principal.user.id },
    select: { id: true, username: true, email: true, isAdmin: true, createdAt: true },
  });
  const teams = await listAccessibleTeams(principal);
  return {
    user: toUserDto(user),
    teams: teams.map((t) => ({ id: t.team.id, name: t.team.name, role: t.role, personal: t.team.personalFor !== null })),
    default_project: await defaultProjectRef(principal),
    auth: principal.via,
  };
}
