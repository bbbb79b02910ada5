import { randomBytes } from "node:crypto";
import { createApiKey } from "@/lib/auth/api-keys";
import type { Principal, Role } from "@/lib/auth/principal";
import { createWorkerKey } from "@/lib/workers/worker-keys";
import { createUser } from "@/lib/auth/users";
import { getDb } from "@/lib/db/client";

// Seed factories: real rows through the same domain functions the API uses. Names are unique per
// call, so test files share one database without colliding.

export const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString("hex")}`;

export interface TestUser {
  principal: Principal;
  username: string;
  email: string;
  password: string;
  key: string;
}

export async function createTestUser(options: { admin?: boolean; prefix?: string } = {}): Promise<TestUser> {
  const username = uniqueName(options.prefix ?? "user");
  const email = `${username}@example.test`;
  const password = `pw-${randomBytes(8).toString("hex")}`;
  const { user } = await createUser({ username, email, password, isAdmin: options.admin ?? false });
  const principal: Principal = { user: { id: user.id, username, email, isAdmin: user.isAdmin }, via: "password" };
  const { key } = await createApiKey(principal, { name: "test" });
  return { principal, username, email, password, key };
}

/** A team with an admin, plus one user per extra role, each with an API key. */
export async function createTestTeam() {
  const name = uniqueName("team");
  const admin = await createTestUser({ prefix: "admin" });
  const team = await getDb().team.create({
    data: { name, memberships: { create: { userId: admin.principal.user.id, role: "admin" } } },
  });
  const addUser = async (role: Role) => {
    const user = await createTestUser({ prefix: role });
    await getDb().membership.create({ data: { teamId: team.id, userId: user.principal.user.id, role } });
    return user;
  };
  return { name, id: team.id, admin, member: await addUser("member"), annotator: await addUser("annotator") };
}

/** A worker key (docs/workers.md), made by an instance admin; for one team's jobs when `team` is given. */
export async function createTestWorkerKey(options: { team?: string } = {}): Promise<{ id: string; key: string }> {
  const admin = await createTestUser({ admin: true });
  const { id, key } = await createWorkerKey(admin.principal, { name: "test-worker", team: options.team });
  return { id, key };
}
