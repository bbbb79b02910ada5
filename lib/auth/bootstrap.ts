import type { Env } from "@/lib/config/env";
import { getDatabase, getDb } from "@/lib/db/client";
import { ensureApiKey } from "@/lib/auth/api-keys";
import { createUser } from "@/lib/auth/users";

// First start: an instance admin from ANNEAL_ADMIN_* (password generated and reported once when
// not given). Every start: ANNEAL_INIT_API_KEY, when set, is a live key of that admin (headless
// initialisation for automation, as Langfuse does it).

export const DEFAULT_ADMIN_EMAIL = "admin@anneal.local";

export interface BootstrapReport {
  createdAdmin?: { username: string; email: string; generatedPassword?: string };
  initApiKey?: "created" | "exists";
}

/** Held while one process initialises: web processes started together on one PostgreSQL take turns
 *  (the first creates the admin, the others find it), instead of all creating it and all but one failing. */
const BOOTSTRAP_ADVISORY_LOCK = 72707370;

export async function bootstrapInstance(env: Env): Promise<BootstrapReport> {
  // Unbounded: the wait for another process's initialisation is no request's lock wait.
  return getDatabase().sql.withUnboundedSession(async (session) => {
    await session.query("SELECT pg_advisory_lock($1)", [BOOTSTRAP_ADVISORY_LOCK]);
    try {
      return await initialise(env);
    } finally {
      await session.query("SELECT pg_advisory_unlock($1)", [BOOTSTRAP_ADVISORY_LOCK]);
    }
  });
}

async function initialise(env: Env): Promise<BootstrapReport> {
  const db = getDb();
  const report: BootstrapReport = {};
  if ((await db.user.count()) === 0) {
    const { user, generatedPassword } = await createUser({
      username: env.ANNEAL_ADMIN_USERNAME,
      email: env.ANNEAL_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL,
      password: env.ANNEAL_ADMIN_PASSWORD,
      isAdmin: true,
    });
    report.createdAdmin = { username: user.username, email: user.email, generatedPassword };
  }
  if (env.ANNEAL_INIT_API_KEY) {
    const admin =
      (env.ANNEAL_ADMIN_EMAIL &&
        (await db.user.findUnique({ where: { email: env.ANNEAL_ADMIN_EMAIL.toLowerCase() }, select: { id: true } }))) ||
      (await db.user.findFirst({ where: { isAdmin: true }, orderBy: { createdAt: "asc" }, select: { id: true } }));
    if (admin) report.initApiKey = await ensureApiKey(admin.id, env.ANNEAL_INIT_API_KEY, "ANNEAL_INIT_API_KEY");
  }
  return report;
}
