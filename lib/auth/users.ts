import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/db/generated/enums";
import { generatePassword, hashPassword, verifyPassword } from "@/lib/auth/password";
import { checkPasswordThrottled } from "@/lib/auth/password-attempts";
import type { Principal } from "@/lib/auth/principal";
import type { UserDto } from "@/lib/auth/schemas";
import { badRequest, conflict, notFound } from "@/lib/contract/errors";
import { CURSOR_SELECT, pageByCreation, type PageQuery } from "@/lib/contract/pagination";

type UserRow = { id: string; username: string; email: string; isAdmin: boolean; createdAt: Date };

export function toUserDto(u: UserRow): UserDto {
  return { id: u.id, username: u.username, email: u.email, is_admin: u.isAdmin, created_at: u.createdAt.toISOString() };
}

const USER_FIELDS = { id: true, username: true, email: true, isAdmin: true, createdAt: true } as const;

export interface NewUser {
  username: string;
  email: string;
  password?: string;
  isAdmin?: boolean;
}

/**
 * Creates a user with their personal team (named after the username, the user its admin), and
 * optionally a membership in another team, in one transaction. Returns the generated password
 * when none was given.
 */
export async function createUser(input: NewUser, membership?: { teamId: string; role: Role }) {
  const email = input.email.toLowerCase();
  const password = input.password ?? generatePassword();
  const passwordHash = await hashPassword(password); // before the transaction: keep it short
  const user = await getDb().$transaction(async (tx) => {
    const taken = await tx.user.findFirst({ where: { OR: [{ username: input.username }, { email }] }, select: { username: true } });
    if (taken) throw conflict(taken.username === input.username ? `Username '${input.username}' is taken.` : `Email '${email}' is already registered.`);
    if (await tx.team.findUnique({ where: { name: input.username }, select: { id: true } })) {
      throw conflict(`A team named '${input.username}' exists; choose another username.`);
    }
    const created = await tx.user.create({
      data: { username: input.username, email, passwordHash, isAdmin: input.isAdmin ?? false },
      select: USER_FIELDS,
    });
    await tx.team.create({
      data: { name: input.username, personalFor: created.id, memberships: { create: { userId: created.id, role: "admin" } } },
    });
    if (membership) await tx.membership.create({ data: { userId: created.id, ...membership } });
    return created;
  });
  return { user, generatedPassword: input.password ? undefined : password };
}

export async function listUsers(query: PageQuery) {
  const db = getDb();
  return pageByCreation({
    query,
    findCursor: (id) => db.user.findUnique({ where: { id }, select: CURSOR_SELECT }),
    findRows: (args) => db.user.findMany({ ...args, select: USER_FIELDS }),
    toDto: toUserDto,
  });
}

export async function findUserByLogin(login: string) {
  const where = login.includes("@") ? { email: login.toLowerCase() } : { username: login };
  return getDb().user.findUnique({ where, select: USER_FIELDS });
}

export async function setPassword(userId: string, password: string): Promise<void> {
  await getDb().user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(password) } });
}

/** The operator's reset (CLI): sets a new password, generated when none is given. */
export async function resetPassword(login: string, password?: string): Promise<string> {
  const user = await findUserByLogin(login);
  if (!user) throw notFound(`No user '${login}'.`);
  const next = password ?? generatePassword();
  await setPassword(user.id, next);
  return next;
}

/** `address`: the client's, for the throttle on wrong current passwords (lib/auth/password-attempts.ts). */
export async function changeOwnPassword(principal: Principal, current: string, next: string, address: string | null): Promise<void> {
  const user = await getDb().user.findUniqueOrThrow({ where: { id: principal.user.id }, select: { passwordHash: true } });
  const attempt = { account: { userId: principal.user.id }, address, via: "password_change" } as const;
  if (!(await checkPasswordThrottled(attempt, () => verifyPassword(current, user.passwordHash)))) {
    throw badRequest("The current password is not correct.");
  }
  await setPassword(principal.user.id, next);
}
