import { ACCESS_CHANGED_SQL, clearAccessCache } from "@/lib/auth/access-cache";
import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/db/generated/enums";
import type { Principal } from "@/lib/auth/principal";
import { listAccessibleTeams, resolveTeamAccess } from "@/lib/auth/team-access";
import { createUser } from "@/lib/auth/users";
import { badRequest, conflict, notFound } from "@/lib/contract/errors";
import { toPage } from "@/lib/contract/pagination";

// Teams and their members. Creating teams is for instance admins; managing a team's members is
// for that team's admins. A team always keeps at least one admin.

type TeamRow = { id: string; name: string; personalFor: string | null; createdAt: Date };

const toTeamDto = (team: TeamRow, role: Role) => ({
  id: team.id,
  name: team.name,
  role,
  personal: team.personalFor !== null,
  created_at: team.createdAt.toISOString(),
});

export async function listTeams(principal: Principal) {
  const access = await listAccessibleTeams(principal);
  const teams = await getDb().team.findMany({
    where: { id: { in: access.map((a) => a.team.id) } },
    orderBy: { name: "asc" },
  });
  const roles = new Map(access.map((a) => [a.team.id, a.role]));
  return toPage(teams.map((t) => toTeamDto(t, roles.get(t.id)!)), teams.length);
}

export async function createTeam(principal: Principal, name: string) {
  const db = getDb();
  if (await db.team.findUnique({ where: { name }, select: { id: true } })) throw conflict(`Team '${name}' exists.`);
  if (await db.user.findUnique({ where: { username: name }, select: { id: true } })) {
    throw conflict(`'${name}' is a user's personal team name; choose another.`);
  }
  const team = await db.team.create({
    data: { name, memberships: { create: { userId: principal.user.id, role: "admin" } } },
  });
  return toTeamDto(team, "admin");
}

type MemberRow = { role: Role; createdAt: Date; user: { id: string; username: string; email: string } };
const MEMBER_SELECT = { role: true, createdAt: true, user: { select: { id: true, username: true, email: true } } } as const;

const toMemberDto = (m: MemberRow) => ({
  user_id: m.user.id,
  username: m.user.username,
  email: m.user.email,
  role: m.role,
  joined_at: m.createdAt.toISOString(),
});

export async function listMembers(principal: Principal, teamName: string) {
  const { team } = await resolveTeamAccess(principal, teamName, "use");
  const rows = await getDb().membership.findMany({
    where: { teamId: team.id },
    select: MEMBER_SELECT,
    orderBy: { user: { username: "asc" } },
  });
  return toPage(rows.map((m) => ({ id: m.user.id, ...toMemberDto(m) })), rows.length);
}

export interface AddMemberInput {
  username: string;
  role: Role;
  email?: string;
  password?: string;
}

/** Adds an existing user to the team, or creates the user (email required) and adds them. */
export async function addMember(principal: Principal, teamName: string, input: AddMemberInput) {
  const { team } = await resolveTeamAccess(principal, teamName, "manage");
  const db = getDb();
  const existing = await db.user.findUnique({ where: { username: input.username }, select: { id: true } });
  if (existing) {
    const already = await db.membership.findUnique({ where: { teamId_userId: { teamId: team.id, userId: existing.id } } });
    if (already) throw conflict(`'${input.username}' is already a member of '${teamName}'.`);
    const member = await db.membership.create({
      data: { teamId: team.id, userId: existing.id, role: input.role },
      select: MEMBER_SELECT,
    });
    return { member: toMemberDto(member), created_user: false };
  }
  if (!input.email) {
    throw notFound(`No user '${input.username}'. To create the user, send their email (and optionally a password).`);
  }
  const { user, generatedPassword } = await createUser(
    { username: input.username, email: input.email, password: input.password },
    { teamId: team.id, role: input.role },
  );
  const member = await db.membership.findUniqueOrThrow({
    where: { teamId_userId: { teamId: team.id, userId: user.id } },
    select: MEMBER_SELECT,
  });
  return { member: toMemberDto(member), created_user: true, ...(generatedPassword ? { password: generatedPassword } : {}) };
}

async function findMembership(teamId: string, username: string) {
  const membership = await getDb().membership.findFirst({
    where: { teamId, user: { username } },
    select: { ...MEMBER_SELECT, userId: true },
  });
  if (!membership) throw notFound(`'${username}' is not a member of this team.`);
  return membership;
}

/** Changes a member's role or removes them: both refuse to leave the team without an admin. */
async function changeMembership(
  principal: Principal,
  teamName: string,
  username: string,
  change: { role: Role } | "remove",
) {
  const { team } = await resolveTeamAccess(principal, teamName, "manage");
  const membership = await findMembership(team.id, username);
  if (change === "remove" && team.personalFor === membership.userId) {
    throw badRequest(`'${username}' owns the personal team '${teamName}' and cannot be removed from it.`);
  }
  const losesAdmin = membership.role === "admin" && (change === "remove" || change.role !== "admin");
  const db = getDb();
  const result = await db.$transaction(async (tx) => {
    if (losesAdmin) {
      const admins = await tx.membership.count({ where: { teamId: team.id, role: "admin" } });
      if (admins <= 1) throw badRequest(`'${teamName}' needs at least one admin: make someone else admin first.`);
    }
    const where = { teamId_userId: { teamId: team.id, userId: membership.userId } };
    await tx.$executeRawUnsafe(ACCESS_CHANGED_SQL); // sent when this commits: every web process forgets
    if (change === "remove") {
      await tx.membership.delete({ where });
      return { removed: true, username };
    }
    const updated = await tx.membership.update({ where, data: { role: change.role }, select: MEMBER_SELECT });
    return toMemberDto(updated);
  });
  clearAccessCache(); // here at once; elsewhere when the notice arrives
  return result;
}

export const updateMemberRole = (principal: Principal, team: string, username: string, role: Role) =>
  changeMembership(principal, team, username, { role }) as Promise<ReturnType<typeof toMemberDto>>;

export const removeMember = (principal: Principal, team: string, username: string) =>
  changeMembership(principal, team, username, "remove") as Promise<{ removed: true; username: string }>;

export async function listProjects(principal: Principal, teamName: string) {
  const { team } = await resolveTeamAccess(principal, teamName, "annotate");
  const rows = await getDb().project.findMany({ where: { teamId: team.id }, orderBy: { name: "asc" } });
  return toPage(
    rows.map((p) => ({ id: p.id, name: p.name, team: team.name, created_at: p.createdAt.toISOString() })),
    rows.length,
  );
}
